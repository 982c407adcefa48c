// The only place resource routes are written: for each resource of the table, the five
// CRUD operations it offers (with their OpenAPI contract); every other method of its paths is
// answered 405 + Allow by the app's method guard (@app/db/http).

import { Prisma, type PrismaClient } from "@app/db";
import { type DeclaredRefusal, withRefusals } from "@app/schemas/refusals";
import { ErrorResponse, IdempotencyHeaders, itemQuery, MessageResponse } from "@app/schemas/scheduling";
import { requestHash, sendAnswer } from "@app/server/idempotency";
import type { FastifyInstance, FastifyRequest, HTTPMethods } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { Forbidden, NotFound } from "../errors.ts";
import type { AuthContext } from "../types.ts";
import { idempotencyKeys } from "./idempotency.ts";
import {
  type AccessContext,
  type CustomContext,
  type CustomOperation,
  LOCKING_TRANSACTION,
  type Operation,
  type Resource,
  type Row,
} from "./resource.ts";

const ROUTES: Record<Operation, { method: HTTPMethods; item: boolean }> = {
  list: { method: "GET", item: false },
  create: { method: "POST", item: false },
  read: { method: "GET", item: true },
  edit: { method: "PATCH", item: true },
  delete: { method: "DELETE", item: true },
};

const ERROR_MEANINGS: Record<number, string> = {
  400: "Invalid id, query or body; `issues` names each bad field",
  401: "No apiKey, or one that is unknown or expired",
  403: "You may see this but not do this to it (or you named another user without being an admin)",
  404: "No such row, or one you may not see (including rows the body points at)",
  409: "A unique value is already taken, or the change would leave a team without an OWNER or the installation without an ADMIN",
  422: "The Idempotency-Key was already used with a different request",
  429: "Rate limit exceeded",
};

/** An operation's description declaring `refusals` (docs/adr/0214); none without any. */
const declared = (refusals: readonly DeclaredRefusal[] | undefined, description = "") =>
  refusals?.length || description ? { description: withRefusals(description, refusals ?? []) } : {};

/** A documented JSON response (the description shows in /docs instead of "Default Response"). */
const respond = (description: string, schema: z.ZodType) => ({
  description,
  content: { "application/json": { schema } },
});

const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((code) => [code, respond(ERROR_MEANINGS[code]!, ErrorResponse)]));

const pascal = (words: string) =>
  words.replace(/(?:^|[\s_-]+)(\w)/g, (_, letter: string) => letter.toUpperCase());

/** Rows a caller may read: everything for an admin, else what the resource shows them. */
function visibleWhere(resource: Resource, auth: AuthContext): object {
  return auth.isAdmin ? {} : resource.visibleTo(auth.userId);
}

function notFound(resource: Resource, id: unknown): NotFound {
  return new NotFound(`${resource.name} with id: ${String(id)} not found`);
}

/** A body's Json fields: `null` means "no value", which Prisma spells DbNull. */
function toPrismaData(resource: Resource, data: object): object {
  const entries = Object.entries(data).map(([key, value]) =>
    value === null && resource.jsonColumns.includes(key) ? [key, Prisma.DbNull] : [key, value],
  );
  return Object.fromEntries(entries);
}

/**
 * Runs a list or read on the request's database as it may lag (docs/adr/0178): the default
 * database's replica while it is within REPLICA_MAX_LAG_MS and has this instance's last write,
 * else its primary; a tenant's database is always its own primary (docs/adr/0177).
 */
function readLagging<T>(request: FastifyRequest, task: (db: PrismaClient) => Promise<T>): Promise<T> {
  return request.db === request.server.prisma ? request.server.reads.read(task) : task(request.db);
}

/** Booking e-mails are written with SMTP_URL set, into the request's database's outbox (docs/adr/0222, 0230). */
const writesMail = (request: FastifyRequest): boolean => request.server.mail !== null;

/**
 * Connected calendars for a request, on its database: the default one's sync, or the tenant's
 * (docs/adr/0259). A request refreshes the same hosts once: an operation's `prepare` and its
 * `handle` share it.
 */
const calendarsOf = (request: FastifyRequest): AccessContext["calendars"] => {
  const { staleMs, sync, tenants } = request.server.calendars;
  const { tenantId, db } = request;
  if (tenantId !== null && !tenants) return undefined;
  const refreshFor = (userIds: number[]) =>
    tenantId !== null && tenants ? tenants.refresh(tenantId, db, userIds) : sync.refreshForBooking(userIds);
  const refreshed = new Map<string, Promise<Date>>();
  return {
    staleMs,
    refresh(userIds) {
      const key = [...userIds].sort((a, b) => a - b).join(",");
      const since = refreshed.get(key) ?? refreshFor(userIds);
      refreshed.set(key, since);
      return since;
    },
  };
};

async function loadVisible(resource: Resource, ctx: AccessContext, key: unknown): Promise<Row> {
  const row = await resource.delegate(ctx.db).findFirst({
    where: { AND: [resource.keyWhere(key), visibleWhere(resource, ctx.auth)] },
    select: resource.select,
  });
  if (!row) throw notFound(resource, resource.formatKey(key));
  return row;
}

/**
 * The row an edit or delete works on. A resource with `lockForChange` or `afterChange` gets one
 * transaction: its locks first, then the row read again under them, so the checks and the
 * write that follow see what concurrent changes committed before them, and what the change
 * implies (`afterChange`) commits with it or not at all.
 */
async function changeVisible<T>(
  resource: Resource,
  ctx: AccessContext,
  key: unknown,
  work: (ctx: AccessContext, row: Row) => Promise<T>,
): Promise<T> {
  const lock = resource.lockForChange;
  if (!lock && !resource.afterChange) return work(ctx, await loadVisible(resource, ctx, key));
  return ctx.db.$transaction(async (tx) => {
    const locked = { ...ctx, db: tx as unknown as PrismaClient };
    if (lock) await lock(locked, await loadVisible(resource, locked, key));
    return work(locked, await loadVisible(resource, locked, key));
  }, LOCKING_TRANSACTION);
}

/** Every row a body points at must exist, be visible, or be changeable (Reference.need). */
async function checkReferences(resource: Resource, ctx: AccessContext, body: Record<string, unknown>) {
  for (const { field, resource: target, need } of resource.references) {
    const id = body[field];
    if (id === undefined || id === null) continue;
    const visibility = need === "exist" ? {} : visibleWhere(target, ctx.auth);
    const row = await target.delegate(ctx.db).findFirst({
      where: { AND: [target.keyWhere(id), visibility] },
      select: target.select,
    });
    if (!row) throw notFound(target, target.formatKey(id));
    if (need === "change") await target.authorize(ctx, row, "edit");
  }
}

/**
 * Who a create acts as. An admin naming another user acts as that user would (their rows,
 * their references); anyone else may name only themself.
 */
async function resolveActor(ctx: AccessContext, requested: unknown): Promise<AuthContext> {
  if (typeof requested !== "number" || requested === ctx.auth.userId) return ctx.auth;
  if (!ctx.auth.isAdmin) throw new Forbidden("Only admins can act for another user (userId)");
  const user = await ctx.db.user.findUnique({ where: { id: requested }, select: { id: true } });
  if (!user) throw new NotFound(`User with id: ${requested} not found`);
  return { ...ctx.auth, userId: requested, isAdmin: false };
}

/** Separates the admin-only "act for this user" key from the data to store. */
function splitActAs(resource: Resource, body: Record<string, unknown>) {
  if (!resource.actAs) return { body, requested: undefined };
  const { [resource.actAs]: requested, ...rest } = body;
  return { body: rest, requested };
}

type IdParams = { id: unknown };

/** A custom operation's route: its own contract and handler, the resource's tags, auth and id parsing. */
function registerCustom(
  app: FastifyInstance,
  resource: Resource,
  route: { method: HTTPMethods; url: string; item: boolean; operationId: string },
  operation: CustomOperation,
): void {
  const status = operation.status ?? 200;
  const errorStatuses = operation.idempotent ? [...operation.errors, 422] : operation.errors;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: route.method,
    url: route.url,
    schema: {
      tags: [resource.path],
      security: [{ ApiKeyAuth: [] }],
      operationId: route.operationId,
      summary: operation.summary,
      ...declared(operation.refusals, operation.description),
      ...(route.item ? { params: resource.params } : {}),
      querystring: operation.querystring ?? itemQuery,
      ...(operation.idempotent ? { headers: IdempotencyHeaders } : {}),
      ...(operation.body ? { body: operation.body } : {}),
      response: { [status]: respond(operation.summary, operation.response), ...errors(...errorStatuses) },
    },
    handler: async (request, reply) => {
      const input = {
        id: (request.params as Partial<IdParams>).id,
        query: request.query,
        body: request.body,
      };
      const calendars = calendarsOf(request);
      const contextOn = (db: PrismaClient): CustomContext => ({
        db,
        auth: request.auth,
        writesMail: writesMail(request),
        calendars,
        loadVisible: (key) => loadVisible(resource, { db, auth: request.auth }, key),
      });
      const run = (db: PrismaClient) => operation.handle(contextOn(db), input);
      const key = operation.idempotent
        ? (request.headers as { "idempotency-key"?: string })["idempotency-key"]
        : undefined;
      // Before any transaction, the key's claim included: see CustomOperation.prepare.
      await operation.prepare?.(contextOn(request.db), input);
      if (key === undefined) {
        const answer = route.method === "GET" ? await readLagging(request, run) : await run(request.db);
        return reply.code(status).send(answer);
      }
      // The answer is serialized here, as the route's serializer would, so that what is kept
      // and replayed is exactly what was sent.
      const answer = await idempotencyKeys.answerOnce(
        request.db,
        { userId: request.auth.userId, key, hash: requestHash(route.operationId, request.body) },
        async (tx) => ({ status, body: JSON.stringify(z.encode(operation.response, await run(tx))) }),
      );
      return sendAnswer(reply, answer);
    },
  });
}

export function registerResource(app: FastifyInstance, resource: Resource): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { path, name, keys, schemas } = resource;
  // Keyed by the resource's envelope names, so typed as plain records.
  const oneShape: Record<string, z.ZodType> = { [keys.singular]: schemas.public };
  const one = z.object(oneShape);
  const operationName = { one: pascal(name), many: pascal(path) };
  const context = (request: FastifyRequest): AccessContext => ({
    db: request.db,
    auth: request.auth,
    writesMail: writesMail(request),
    calendars: calendarsOf(request),
  });
  const offers = (operation: Operation) => resource.operations.includes(operation);
  const common = { tags: [path], security: [{ ApiKeyAuth: [] }] };
  const generic = (operation: Operation) => offers(operation) && !resource.custom[operation];
  const operationIds: Record<Operation, string> = {
    list: `list${operationName.many}`,
    create: `add${operationName.one}`,
    read: `get${operationName.one}ById`,
    edit: `edit${operationName.one}ById`,
    delete: `remove${operationName.one}ById`,
  };

  for (const operation of resource.operations) {
    const custom = resource.custom[operation];
    if (!custom) continue;
    const { method, item } = ROUTES[operation];
    const url = item ? `/${path}/:id` : `/${path}`;
    registerCustom(app, resource, { method, url, item, operationId: operationIds[operation] }, custom);
  }
  for (const action of resource.actions) {
    const url = `/${path}/:id/${action.name}`;
    registerCustom(
      app,
      resource,
      { method: action.method, url, item: true, operationId: action.operationId },
      action.operation,
    );
  }

  if (generic("list")) {
    const listShape: Record<string, z.ZodType> = {
      [keys.plural]: z.array(schemas.public),
      ...(resource.countTotal ? { total: z.int().describe("Rows matching the filters, all pages") } : {}),
    };
    const listBody = z.object(listShape);
    routes.get(
      `/${path}`,
      {
        schema: {
          ...common,
          operationId: operationIds.list,
          summary: `List the ${path.replaceAll("-", " ")} you can see`,
          querystring: schemas.list,
          response: { 200: respond("One page of rows", listBody), ...errors(400, 401, 403, 429) },
        },
      },
      async (request) => {
        const { auth } = request;
        const query = request.query as { page: number; take: number; userId?: number[] };
        const { page, take, userId: userIds } = query;
        if (userIds && !auth.isAdmin && userIds.some((id) => id !== auth.userId)) {
          throw new Forbidden("Only admins can filter by another user's userId");
        }
        const where = {
          AND: [
            visibleWhere(resource, auth),
            userIds ? resource.ownedBy(userIds) : {},
            resource.listWhere(query),
          ],
        };
        const skip = (page - 1) * take;
        return readLagging(request, async (db) => {
          const rows = resource.sqlList
            ? await resource.sqlList(db, {
                viewer: auth.isAdmin ? null : auth.userId,
                userIds,
                query,
                skip,
                take,
              })
            : await resource
                .delegate(db)
                .findMany({ where, select: resource.select, orderBy: { id: "asc" }, skip, take });
          const page = rows.map(resource.present);
          if (!resource.countTotal) return { [keys.plural]: page };
          return { [keys.plural]: page, total: await resource.delegate(db).count({ where }) };
        });
      },
    );
  }

  if (generic("create") && schemas.create) {
    routes.post(
      `/${path}`,
      {
        schema: {
          ...common,
          operationId: operationIds.create,
          summary: `Create a ${name.toLowerCase()}`,
          ...declared(resource.refusals.create),
          querystring: itemQuery,
          body: schemas.create,
          response: {
            201: respond("Created", one.extend({ message: z.string() })),
            ...errors(400, 401, 403, 404, 409, 429),
          },
        },
      },
      async (request, reply) => {
        const ctx = context(request);
        const { body, requested } = splitActAs(resource, request.body as Record<string, unknown>);
        const actor = { ...ctx, auth: await resolveActor(ctx, requested) };
        await checkReferences(resource, actor, body);
        await resource.authorizeCreate(actor, body);
        const input = resource.ownerColumn ? { ...body, [resource.ownerColumn]: actor.auth.userId } : body;
        const create = async (on: AccessContext) => {
          const data = toPrismaData(resource, await resource.createData(input, on));
          return resource.delegate(on.db).create({ data, select: resource.select });
        };
        const lock = resource.lockForCreate;
        const row = !lock
          ? await create(actor)
          : await ctx.db.$transaction(async (tx) => {
              const locked = { ...actor, db: tx as unknown as PrismaClient };
              await lock(locked, input);
              return create(locked);
            }, LOCKING_TRANSACTION);
        reply.code(201);
        return { [keys.singular]: resource.present(row), message: `${name} created successfully` };
      },
    );
  }

  if (generic("read")) {
    routes.get(
      `/${path}/:id`,
      {
        schema: {
          ...common,
          operationId: operationIds.read,
          summary: `Get a ${name.toLowerCase()}`,
          params: resource.params,
          querystring: itemQuery,
          response: { 200: respond("The row", one), ...errors(400, 401, 403, 404, 429) },
        },
      },
      async (request) => {
        const { id } = request.params as IdParams;
        const row = await readLagging(request, (db) => loadVisible(resource, { db, auth: request.auth }, id));
        return { [keys.singular]: resource.present(row) };
      },
    );
  }

  if (generic("edit") && schemas.edit) {
    routes.patch(
      `/${path}/:id`,
      {
        schema: {
          ...common,
          operationId: operationIds.edit,
          summary: `Edit a ${name.toLowerCase()}`,
          ...declared(resource.refusals.edit),
          params: resource.params,
          querystring: itemQuery,
          body: schemas.edit,
          response: { 200: respond("The row as edited", one), ...errors(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        const { id } = request.params as IdParams;
        const body = request.body as Record<string, unknown>;
        return changeVisible(resource, context(request), id, async (ctx, row) => {
          await resource.authorize(ctx, row, "edit", body);
          await checkReferences(resource, ctx, body);
          const data = toPrismaData(resource, await resource.editData(body, row, ctx));
          const updated = await resource
            .delegate(ctx.db)
            .update({ where: { id: row.id }, data, select: resource.select });
          await resource.afterChange?.(ctx, row, updated, body);
          return { [keys.singular]: resource.present(updated) };
        });
      },
    );
  }

  if (generic("delete")) {
    routes.delete(
      `/${path}/:id`,
      {
        schema: {
          ...common,
          operationId: operationIds.delete,
          summary: `Delete a ${name.toLowerCase()}`,
          params: resource.params,
          querystring: itemQuery,
          response: { 200: respond("Deleted", MessageResponse), ...errors(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        const { id } = request.params as IdParams;
        await changeVisible(resource, context(request), id, async (ctx, row) => {
          await resource.authorize(ctx, row, "delete");
          await resource.delegate(ctx.db).delete({ where: { id: row.id } });
          await resource.afterChange?.(ctx, row, null);
        });
        return { message: `${name} with id: ${resource.formatKey(id)} deleted successfully` };
      },
    );
  }
}
