// The event-type list as one prepared statement on the driver: Prisma's version of this query
// (LATERAL joins for hosts and custom inputs) spent more CPU building, running and mapping it
// than the rest of the request did (docs/performance.md). It answers exactly what the generic
// list's Prisma query answers; test/event-types-list.test.ts compares the two.
import { type PrismaClient, queryPrepared } from "@app/db";
import { CustomInput, EventType } from "@app/schemas/scheduling";
import { z } from "zod";
import type { ListFilter, Row } from "./resource.ts";

const RELATIONS = new Set(["hosts", "customInputs"]);
const columns = Object.keys(EventType.shape).filter((key) => !RELATIONS.has(key));
const jsonObject = (alias: string, keys: string[]) =>
  `json_build_object(${keys.map((key) => `'${key}', ${alias}."${key}"`).join(", ")})`;

/** The columns read back as dates (`timestamp(3)`, UTC, as Prisma stores them); the relations have none. */
const DATES = columns.filter((key) => {
  const schema = EventType.shape[key as keyof typeof EventType.shape];
  return (schema instanceof z.ZodNullable ? schema.unwrap() : schema) instanceof z.ZodDate;
});

// Each row as one JSON document (docs/adr/0258): node-postgres then parses one field a row, with
// JSON.parse, where each of some forty columns took a parser of its own, and sets up one field
// per query where setting up forty was the client's costliest step of the request (a profile).
const SELECT = `SELECT row_to_json(r) AS "row" FROM (SELECT ${columns.map((column) => `e."${column}"`).join(", ")},
  COALESCE((SELECT json_agg(${jsonObject("h", ["userId", "isFixed", "scheduleId", "priority", "weight"])} ORDER BY h."userId")
    FROM "scheduling"."event_type_hosts" h WHERE h."eventTypeId" = e."id"), '[]') AS "hosts",
  COALESCE((SELECT json_agg(${jsonObject("c", Object.keys(CustomInput.shape))} ORDER BY c."id")
    FROM "scheduling"."event_type_custom_inputs" c WHERE c."eventTypeId" = e."id"), '[]') AS "customInputs"
FROM "scheduling"."event_types" e`;

/** Personal event types of these users, and those of every team they are a member of (eventTypesOwnedBy). */
const ownedBy = (users: string) =>
  `(e."userId" = ANY(${users}) OR EXISTS (SELECT 1 FROM "scheduling"."memberships" m
    WHERE m."teamId" = e."teamId" AND m."userId" = ANY(${users})))`;

const statements = new Map<string, { name: string; text: string }>();

export async function listEventTypes(
  db: PrismaClient,
  { viewer, userIds, query, skip, take }: ListFilter<{ slug?: string[] }>,
): Promise<Row[]> {
  // One statement per combination of filters, so each keeps a plan that uses its indexes.
  const values: unknown[] = [take, skip];
  const conditions: string[] = [];
  const parameter = (value: unknown, type: string) => `$${values.push(value)}::${type}`;
  if (viewer !== null) conditions.push(ownedBy(`ARRAY[${parameter(viewer, "int")}]`));
  if (userIds !== undefined) conditions.push(ownedBy(parameter(userIds, "int[]")));
  if (query.slug !== undefined) conditions.push(`e."slug" = ANY(${parameter(query.slug, "text[]")})`);
  const filters = `${viewer === null ? "" : "v"}${userIds ? "u" : ""}${query.slug ? "s" : ""}`;
  const name = `event-types-list-${filters}`;
  let prepared = statements.get(name);
  if (!prepared) {
    const where = conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "";
    // The page is cut inside; the outer ORDER BY keeps its order (the planner reuses the inner sort).
    prepared = { name, text: `${SELECT} ${where} ORDER BY e."id" LIMIT $1 OFFSET $2) r ORDER BY r."id"` };
    statements.set(name, prepared);
  }
  const rows = await queryPrepared<{ row: Row }>(db, prepared, values);
  return rows.map(({ row }) => {
    // JSON renders a timestamp as its ISO text without a zone; the value is UTC.
    for (const key of DATES) if (row[key] !== null) row[key] = new Date(`${row[key]}Z`);
    return row;
  });
}
