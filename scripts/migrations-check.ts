// `pnpm migrations:check` (a step of .ci/run): expand/contract (docs/adr/0218). During a rolling
// upgrade the previous release serves while this one's migrations run, so a migration the
// previous release does not have may add, but not take away: one that drops or renames a table
// or column the previous release still reads (its prisma/schema.prisma maps it), or a unique
// index it declares (its inserts may name it in ON CONFLICT), is refused, unless the migration is marked as a contract step (a line `-- contract step: <why>`). A contract
// step never runs when a service starts: `pnpm db:migrate --contract` applies it once every
// instance runs the new release.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isContractStep } from "@app/db";
import { git, previousRelease } from "./previous-release.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const MIGRATIONS = "prisma/migrations";

/**
 * The tables and columns a Prisma schema maps, `schema.table` and `schema.table.column`, and the
 * unique indexes it declares (`@unique`, `@@unique`), `schema.index` as Prisma Migrate names them
 * (`<table>_<columns>_key`, or their `map:`); all lower case.
 */
export function schemaObjects(prismaSchema: string): {
  tables: Set<string>;
  columns: Set<string>;
  uniqueIndexes: Set<string>;
} {
  const models = [...prismaSchema.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)];
  const enums = new Set([...prismaSchema.matchAll(/^enum\s+(\w+)/gm)].map((match) => match[1]!));
  const modelNames = new Set(models.map((match) => match[1]!));
  const tables = new Set<string>();
  const columns = new Set<string>();
  const uniqueIndexes = new Set<string>();
  for (const [, name, body] of models) {
    const schema = /@@schema\("([^"]+)"\)/.exec(body!)?.[1] ?? "public";
    const tableName = /@@map\("([^"]+)"\)/.exec(body!)?.[1] ?? name!;
    const table = `${schema}.${tableName}`.toLowerCase();
    tables.add(table);
    const columnOf = new Map<string, string>();
    const index = (fields: string[], map: string | undefined) =>
      uniqueIndexes.add(
        `${schema}.${map ?? `${tableName}_${fields.map((field) => columnOf.get(field) ?? field).join("_")}_key`}`.toLowerCase(),
      );
    for (const line of body!.split("\n")) {
      const compound = /^\s*@@unique\(\[([^\]]*)\](?:.*map:\s*"([^"]+)")?/.exec(line);
      if (compound) {
        const fields = compound[1]!.split(",").map((field) => field.trim().replace(/\(.*$/, ""));
        // Fields are declared above @@unique: their columns are known by now.
        index(fields, compound[2]);
        continue;
      }
      const field = /^\s*(\w+)\s+(\w+)/.exec(line);
      if (!field || line.trim().startsWith("//") || line.trim().startsWith("@@")) continue;
      const type = field[2]!;
      // A relation field is no column (its foreign key is a field of its own).
      if (modelNames.has(type) && !enums.has(type)) continue;
      const column = /@map\("([^"]+)"\)/.exec(line)?.[1] ?? field[1]!;
      columnOf.set(field[1]!, column);
      columns.add(`${table}.${column}`.toLowerCase());
      const unique = /@unique(?:\(map:\s*"([^"]+)"\))?/.exec(line);
      if (unique) index([field[1]!], unique[1]);
    }
  }
  return { tables, columns, uniqueIndexes };
}

export interface Removal {
  kind: "drops table" | "renames table" | "drops column" | "renames column" | "drops index";
  /** `schema.table`, `schema.table.column` or `schema.index`, lower case. */
  object: string;
}

/** A SQL identifier as PostgreSQL folds it: quoted kept, unquoted lower-cased. */
const identifier = (text: string) =>
  text.startsWith('"') ? text.slice(1, -1).replaceAll('""', '"') : text.toLowerCase();
const NAME = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)`;
const QUALIFIED = String.raw`${NAME}(?:\s*\.\s*${NAME})?`;

/** `schema.table` of a possibly qualified name (public when unqualified). */
function tableOf(text: string): string {
  const parts = [...text.matchAll(new RegExp(NAME, "g"))].map((match) => identifier(match[0]));
  return (parts.length === 2 ? parts.join(".") : `public.${parts[0]}`).toLowerCase();
}

/** What a migration's SQL drops or renames, statement by statement (comments ignored). */
export function removals(sql: string): Removal[] {
  const found: Removal[] = [];
  const statements = sql
    .replace(/--[^\n]*/g, "")
    .split(";")
    .map((statement) => statement.replace(/\s+/g, " ").trim());
  for (const statement of statements) {
    const dropIndex = /^DROP INDEX (?:CONCURRENTLY )?(?:IF EXISTS )?(.+?)(?: CASCADE| RESTRICT)?$/i.exec(
      statement,
    );
    if (dropIndex) {
      for (const name of dropIndex[1]!.split(","))
        found.push({ kind: "drops index", object: tableOf(name.trim()) });
      continue;
    }
    const dropTable = /^DROP TABLE (?:IF EXISTS )?(.+?)(?: CASCADE| RESTRICT)?$/i.exec(statement);
    if (dropTable) {
      for (const name of dropTable[1]!.split(","))
        found.push({ kind: "drops table", object: tableOf(name.trim()) });
      continue;
    }
    const alter = new RegExp(`^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?(${QUALIFIED}) (.*)$`, "i").exec(
      statement,
    );
    if (!alter) continue;
    const table = tableOf(alter[1]!);
    const actions = alter[2]!;
    if (/^RENAME TO /i.test(actions)) {
      found.push({ kind: "renames table", object: table });
      continue;
    }
    const renamed = new RegExp(`^RENAME (?:COLUMN )?(${NAME}) TO `, "i").exec(actions);
    if (renamed) {
      found.push({ kind: "renames column", object: `${table}.${identifier(renamed[1]!)}`.toLowerCase() });
      continue;
    }
    for (const dropped of actions.matchAll(
      new RegExp(
        String.raw`(?:^|,)\s*DROP (?:COLUMN )?(?:IF EXISTS )?(?!CONSTRAINT\b|DEFAULT\b|NOT\b|IDENTITY\b|EXPRESSION\b)(${NAME})`,
        "gi",
      ),
    )) {
      found.push({ kind: "drops column", object: `${table}.${identifier(dropped[1]!)}`.toLowerCase() });
    }
  }
  return found;
}

export interface MigrationVerdict {
  migration: string;
  removal: Removal;
  /** Refused: the previous release reads it and the migration is no contract step. */
  refused: boolean;
}

/** Each removal of `migrations` that touches what `previousSchema` maps, and whether it is refused. */
export function checkMigrations(
  previousSchema: string,
  migrations: { name: string; sql: string }[],
): MigrationVerdict[] {
  const { tables, columns, uniqueIndexes } = schemaObjects(previousSchema);
  const verdicts: MigrationVerdict[] = [];
  for (const migration of migrations) {
    for (const removal of removals(migration.sql)) {
      // Of indexes, only a unique one matters to the previous release: an insert's ON CONFLICT
      // may name it (a plain index's drop only costs speed).
      const read =
        removal.kind === "drops index"
          ? uniqueIndexes.has(removal.object)
          : removal.kind.endsWith("table")
            ? tables.has(removal.object)
            : columns.has(removal.object);
      if (read) verdicts.push({ migration: migration.name, removal, refused: !isContractStep(migration) });
    }
  }
  return verdicts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const commit = previousRelease();
    const previousMigrations = new Set(
      git(["ls-tree", "--name-only", `${commit}:${MIGRATIONS}`])
        .split("\n")
        .filter(Boolean),
    );
    const added = readdirSync(path.join(root, MIGRATIONS), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !previousMigrations.has(entry.name))
      .map((entry) => ({
        name: entry.name,
        sql: readFileSync(path.join(root, MIGRATIONS, entry.name, "migration.sql"), "utf8"),
      }));
    const verdicts = checkMigrations(git(["show", `${commit}:prisma/schema.prisma`]), added);
    for (const { migration, removal, refused } of verdicts) {
      const where = `${MIGRATIONS}/${migration}/migration.sql`;
      if (refused) {
        console.error(
          `${where}: ${removal.kind} ${removal.object}, which the previous release (${commit.slice(0, 12)}) still reads: ` +
            "keep it until a release that no longer reads it, or mark the migration `-- contract step: <why>` " +
            "(it then runs only with `pnpm db:migrate --contract`, once every instance runs this release)",
        );
      } else {
        console.log(
          `${where}: contract step: ${removal.kind} ${removal.object} (pnpm db:migrate --contract)`,
        );
      }
    }
    const refused = verdicts.filter((verdict) => verdict.refused).length;
    console.log(
      `${added.length} migration(s) since the previous release (${commit.slice(0, 12)}): ` +
        `${refused} refused, ${verdicts.length - refused} contract step(s)`,
    );
    if (refused > 0) process.exit(1);
  } catch (error) {
    console.error(`cannot check the migrations: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
