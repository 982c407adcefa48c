// Proves prisma/schema.prisma and the hand-written migrations describe the same database:
// the schema's models (read through Prisma's own schema parser) are compared with what
// the migrations actually built, table by table.
import { readFile } from "node:fs/promises";
import { createTestDatabase, type TestDatabase } from "@app/testing/database";
import { get_dmmf } from "@prisma/prisma-schema-wasm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "object" | "enum";
  isList: boolean;
  isRequired: boolean;
  hasDefaultValue: boolean;
  type: string;
  nativeType?: [string, string[]] | null;
  default?: { name: string } | unknown;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  schema: string;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  fields: { name: string; sortOrder?: "asc" | "desc" }[];
}
interface Dmmf {
  datamodel: {
    models: DmmfModel[];
    enums: {
      name: string;
      dbName: string | null;
      schema?: string;
      values: { name: string; dbName: string | null }[];
    }[];
    indexes: DmmfIndex[];
  };
}

const SCHEMAS = ["shortener", "scheduling", "hosting"];

let db: TestDatabase;
let client: pg.Client;
let dmmf: Dmmf;

beforeAll(async () => {
  const prismaSchema = await readFile(new URL("../../../prisma/schema.prisma", import.meta.url), "utf8");
  dmmf = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema })));
  db = await createTestDatabase();
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await db?.drop();
});

const tableOf = (m: DmmfModel) => `${m.schema}.${m.dbName ?? m.name}`;
const columnOf = (f: DmmfField) => f.dbName ?? f.name;
const models = () => dmmf.datamodel.models;
const modelByName = (name: string) => models().find((m) => m.name === name)!;

function enumDbName(type: string): string {
  const e = dmmf.datamodel.enums.find((x) => x.name === type)!;
  return e.dbName ?? e.name;
}

/** The DMMF leaves an enum's @@schema out: take it from a model that uses the enum. */
function enumSchema(name: string): string {
  return models().find((m) => m.fields.some((f) => f.kind === "enum" && f.type === name))!.schema;
}

/** The type PostgreSQL's format_type() prints for a Prisma field. */
function expectedType(f: DmmfField): string {
  const [native, args = []] = f.nativeType ?? [];
  const n = args[0];
  let base: string;
  if (f.kind === "enum") base = `"${enumDbName(f.type)}"`;
  else if (native === "VarChar") base = n ? `character varying(${n})` : "character varying";
  else if (native === "Char") base = `character(${n ?? 1})`;
  else if (native === "Uuid") base = "uuid";
  else if (native === "Text") base = "text";
  else if (native === "Citext") base = "citext";
  else if (native === "Timestamptz") base = `timestamp(${n ?? 6}) with time zone`;
  else if (native === "Timestamp") base = `timestamp(${n ?? 6}) without time zone`;
  else if (native === "Time") base = `time(${n ?? 6}) without time zone`;
  else if (native === "Date") base = "date";
  else if (native === "SmallInt") base = "smallint";
  else if (native === "Json") base = "json";
  else if (native) throw new Error(`add native type ${native} to this test`);
  else
    base = {
      String: "text",
      Int: "integer",
      BigInt: "bigint",
      Bytes: "bytea",
      Boolean: "boolean",
      DateTime: "timestamp(3) without time zone",
      Json: "jsonb",
      Float: "double precision",
      Decimal: "numeric(65,30)",
    }[f.type]!;
  return f.isList ? `${base}[]` : base;
}

/** Defaults Prisma computes in the client (uuid(), cuid()...) leave no DB default. */
function hasDbDefault(f: DmmfField): boolean {
  if (!f.hasDefaultValue) return false;
  const d = f.default as { name?: string } | undefined;
  return !(d && typeof d === "object" && "name" in d && ["uuid", "cuid", "nanoid", "ulid"].includes(d.name!));
}

describe("prisma/schema.prisma agrees with prisma/migrations", () => {
  it("has the same tables", async () => {
    const { rows } = await client.query<{ t: string }>(
      // A partitioned table is one table (its partitions are storage, not models).
      `SELECT n.nspname || '.' || cl.relname AS t FROM pg_class cl JOIN pg_namespace n ON n.oid = cl.relnamespace
        WHERE n.nspname = ANY($1) AND cl.relkind IN ('r', 'p') AND NOT cl.relispartition`,
      [SCHEMAS],
    );
    expect(rows.map((r) => r.t).sort()).toEqual(models().map(tableOf).sort());
  });

  it("has the same columns, types, nullability and defaults", async () => {
    const { rows } = await client.query<{
      t: string;
      c: string;
      type: string;
      nullable: boolean;
      dflt: boolean;
    }>(
      `SELECT n.nspname || '.' || cl.relname AS t, a.attname AS c,
              format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
              a.atthasdef AS dflt
         FROM pg_attribute a JOIN pg_class cl ON cl.oid = a.attrelid
         JOIN pg_namespace n ON n.oid = cl.relnamespace
        WHERE n.nspname = ANY($1) AND cl.relkind IN ('r', 'p') AND NOT cl.relispartition
          AND a.attnum > 0 AND NOT a.attisdropped`,
      [SCHEMAS],
    );
    const actual = rows
      .map(
        (r) =>
          `${r.t}.${r.c}: ${r.type.replace(/^\w+\./, "")}${r.nullable ? " NULL" : ""}${r.dflt ? " DEFAULT" : ""}`,
      )
      .sort();
    const expected = models()
      .flatMap((m) =>
        m.fields
          .filter((f) => f.kind !== "object")
          .map(
            (f) =>
              // Prisma Migrate creates scalar lists without NOT NULL, so a migration does too.
              `${tableOf(m)}.${columnOf(f)}: ${expectedType(f)}${f.isRequired && !f.isList ? "" : " NULL"}${hasDbDefault(f) ? " DEFAULT" : ""}`,
          ),
      )
      .sort();
    expect(actual).toEqual(expected);
  });

  it("has the same primary keys, unique constraints and indexes", async () => {
    const { rows } = await client.query<{ t: string; kind: string; cols: string | null }>(
      `SELECT n.nspname || '.' || t.relname AS t,
              CASE WHEN i.indisprimary THEN 'id' WHEN i.indisunique THEN 'unique' ELSE 'normal' END AS kind,
              (SELECT string_agg(a.attname || CASE WHEN (i.indoption[k.ord - 1] & 1) = 1 THEN ' desc' ELSE '' END, ',' ORDER BY k.ord)
                 FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS cols
         FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = ANY($1) AND NOT t.relispartition AND NOT 0 = ANY(i.indkey)`,
      [SCHEMAS],
    );
    const actual = rows.map((r) => `${r.t} ${r.kind} (${r.cols})`).sort();
    const expected = dmmf.datamodel.indexes
      .map((ix) => {
        const m = modelByName(ix.model);
        const cols = ix.fields
          .map(
            (f) =>
              columnOf(m.fields.find((x) => x.name === f.name)!) + (f.sortOrder === "desc" ? " desc" : ""),
          )
          .join(",");
        return `${tableOf(m)} ${ix.type} (${cols})`;
      })
      .sort();
    expect(actual).toEqual(expected);
  });

  it("has, besides, only the indexes on expressions the migrations write by hand (Prisma's schema cannot say them)", async () => {
    const { rows } = await client.query<{ index: string; definition: string }>(
      `SELECT n.nspname || '.' || c.relname AS index, pg_get_indexdef(i.indexrelid) AS definition
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = ANY($1) AND NOT t.relispartition AND 0 = ANY(i.indkey) ORDER BY 1`,
      [SCHEMAS],
    );
    // Each named in schema.prisma's comment of its model.
    expect(rows).toEqual([
      {
        index: "shortener.shorts_search_idx",
        definition: expect.stringMatching(/USING gin \(shortener\.short_search_text\(.*gin_trgm_ops\)$/),
      },
    ]);
  });

  it("has the same foreign keys and delete rules", async () => {
    const { rows } = await client.query<{ fk: string }>(
      `SELECT n.nspname || '.' || t.relname || ' (' ||
              (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) || ') -> ' ||
              rn.nspname || '.' || r.relname || ' (' ||
              (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(c.confkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) || ') on delete ' ||
              c.confdeltype::text AS fk
         FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
         JOIN pg_class r ON r.oid = c.confrelid JOIN pg_namespace rn ON rn.oid = r.relnamespace
        WHERE c.contype = 'f' AND n.nspname = ANY($1) AND NOT t.relispartition`,
      [SCHEMAS],
    );
    const rule: Record<string, string> = {
      Cascade: "c",
      Restrict: "r",
      SetNull: "n",
      NoAction: "a",
      SetDefault: "d",
    };
    const expected = models()
      .flatMap((m) =>
        m.fields
          .filter((f) => f.relationFromFields?.length)
          .map((f) => {
            const target = modelByName(f.type);
            const from = f.relationFromFields!.map((n) => columnOf(m.fields.find((x) => x.name === n)!));
            const to = f.relationToFields!.map((n) => columnOf(target.fields.find((x) => x.name === n)!));
            // Prisma's defaults: Restrict for a required relation, SetNull for an optional one.
            const onDelete = f.relationOnDelete ?? (f.isRequired ? "Restrict" : "SetNull");
            return `${tableOf(m)} (${from.join(",")}) -> ${tableOf(target)} (${to.join(",")}) on delete ${rule[onDelete]}`;
          }),
      )
      .sort();
    expect(rows.map((r) => r.fk).sort()).toEqual(expected);
  });

  it("has the same enums and values", async () => {
    const { rows } = await client.query<{ e: string }>(
      `SELECT n.nspname || '.' || t.typname || ': ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS e
         FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE n.nspname = ANY($1) GROUP BY n.nspname, t.typname`,
      [SCHEMAS],
    );
    const expected = dmmf.datamodel.enums
      .map(
        (e) =>
          `${enumSchema(e.name)}.${e.dbName ?? e.name}: ${e.values.map((v) => v.dbName ?? v.name).join(",")}`,
      )
      .sort();
    expect(rows.map((r) => r.e).sort()).toEqual(expected);
  });
});
