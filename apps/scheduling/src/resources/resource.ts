// What a resource module declares, and how `defineResource` turns that typed declaration
// into the uniform shape the factory works with. Modules stay declarative: a model, schemas,
// an id, an ownership rule and, only where a resource truly differs, a hook.

import type { Prisma, PrismaClient } from "@app/db";
import type { DeclaredRefusal } from "@app/schemas/refusals";
import type { z } from "zod";
import type { AuthContext } from "../types.ts";

export type Operation = "list" | "create" | "read" | "edit" | "delete";

/**
 * A transaction that waits for locks (a team's row, a booking's hosts) while it holds a pooled
 * connection: requests on one team queue there, so it gets longer than Prisma's defaults (2 s
 * to get a connection, 5 s in all) before giving up.
 */
export const LOCKING_TRANSACTION = { maxWait: 10_000, timeout: 20_000 } as const;

/** The five CRUD operations, for resources that offer them all. */
export const ALL_OPERATIONS: readonly Operation[] = ["list", "create", "read", "edit", "delete"];

type ModelName = Prisma.ModelName;
type WhereOf<M extends ModelName> = NonNullable<
  Prisma.TypeMap["model"][M]["operations"]["findMany"]["args"]["where"]
>;

/** Who a handler acts as: the caller, or (admins only) the user named by `userId`. */
export interface AccessContext {
  db: PrismaClient;
  auth: AuthContext;
  /**
   * Booking changes write their e-mails into the outbox (SMTP_URL is set and the request runs on
   * the default database: tenants' databases have no sender yet, docs/adr/0222).
   */
  writesMail?: boolean;
  /**
   * Connected calendars, on the request's database (a tenant's own: docs/adr/0259):
   * a booking synchronises its hosts' calendars first and counts them from then on.
   */
  calendars?: { staleMs: number; refresh(userIds: number[]): Promise<Date> } | undefined;
}

/** A path id: parsed by `params` into a key, which names a row; `format(key(row))` round-trips. */
export interface IdCodec<Key, Row> {
  params: z.ZodObject<{ id: z.ZodType<Key, string> }>;
  where: (key: Key) => object;
  key: (row: Row) => Key;
  format: (key: Key) => string;
}

/**
 * A body field naming another resource's row. `exist`: the row must exist; `see`: the caller
 * must be able to read it; `change`: they must also be allowed to edit it (attaching an attendee
 * changes its booking). An unseen row is a 404, an unchangeable one a 403.
 */
export interface Reference {
  field: string;
  resource: Resource;
  need: "exist" | "see" | "change";
}

type Awaitable<T> = T | Promise<T>;

/** What a custom operation's handler gets: the caller, and the row its path id names (404 when not visible). */
export interface CustomContext extends AccessContext {
  loadVisible(key: unknown): Promise<Row>;
}

/**
 * An operation a resource answers its own way, with its own contract (bookings follow v1's
 * semantics: a create that books a slot, a list with v1's filters, a delete that cancels).
 * The factory registers it in place of the generic one, with the same tags and auth.
 */
export interface CustomOperation {
  summary: string;
  description?: string;
  /** What it refuses beyond its schemas, declared in its description (docs/adr/0214). */
  refusals?: readonly DeclaredRefusal[];
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** Success status (default 200) and body. */
  status?: number;
  response: z.ZodType;
  /** Documented error statuses. */
  errors: readonly number[];
  /**
   * Takes an `Idempotency-Key` header (docs/adr/0148): a repeat of the request answers the first
   * answer again. `handle` then runs in the transaction holding the key (its `ctx.db`).
   */
  idempotent?: boolean;
  /**
   * Work that must hold no connection of a transaction (a calendar server's answer), run before
   * `handle` and before an `Idempotency-Key` is claimed: a claim holds its connection while
   * repeats of the key wait on it holding theirs, so work there that needs another connection
   * (calendars/sync.ts has pools of its own) could wait for one that never frees.
   */
  prepare?(ctx: CustomContext, input: { id?: unknown; query: unknown; body: unknown }): Promise<void>;
  handle(ctx: CustomContext, input: { id?: unknown; query: unknown; body: unknown }): Promise<unknown>;
}

/** A further item route, `<method> /<path>/:id/<name>` (v1's `DELETE /bookings/{id}/cancel`). */
export interface CustomAction {
  name: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  operationId: string;
  operation: CustomOperation;
}

export interface ResourceDefinition<
  M extends ModelName,
  Key,
  Public extends z.ZodObject,
  Create extends z.ZodType<object> | undefined,
  Edit extends z.ZodType<object> | undefined,
  List extends z.ZodType<object>,
> {
  /** Path segment under /api/v1; also the OpenAPI tag. */
  path: string;
  /** The OpenAPI tag's description, when the resource's name does not say enough. */
  description?: string;
  /**
   * What the generic create and edit refuse beyond the body schemas (rules over several fields
   * or over stored rows), declared in their operations' descriptions (docs/adr/0214).
   */
  refusals?: { create?: readonly DeclaredRefusal[]; edit?: readonly DeclaredRefusal[] };
  model: M;
  /** For messages: "<name> created successfully", "<name> with id: 3 not found". */
  name: string;
  /** v1's envelope keys. */
  keys: { singular: string; plural: string };
  operations: readonly Operation[];
  id: IdCodec<Key, z.output<Public>>;
  schemas: { public: Public; create?: Create; edit?: Edit; list: List };
  /** Nested selects for the public shape's relation fields (the rest are columns). */
  relations?: Record<string, object>;
  /** Public fields no column holds, with the value each always answers (a user's `organizationId`). */
  fixed?: Readonly<Record<string, unknown>>;
  /** Json columns: a `null` from the client must reach Prisma as DbNull. */
  jsonColumns?: readonly string[];
  /** The column set to the acting user on create (admins choose it with `userId`). */
  ownerColumn?: string;
  /** The body key that lets an admin act for another user; default `userId` when ownerColumn is set. */
  actAs?: string;
  /** Rows belonging to these users: what a non-admin sees, and the admin `userId` filter. */
  ownedBy: (userIds: number[]) => WhereOf<M>;
  /** Where a non-admin sees more than their own rows (a team's memberships). */
  visibleTo?: (userId: number) => WhereOf<M>;
  /** The resource's own list filters (query keys other than page, take, userId). */
  listWhere?: (query: z.output<List>) => WhereOf<M>;
  /** Users answer their list with `total`, as in v1. */
  countTotal?: boolean;
  /**
   * The list as one prepared SQL statement instead of Prisma's query, for a hot read whose
   * Prisma query costs more than the rest of the request (docs/performance.md). It answers
   * exactly what the generic list would; a test compares the two.
   */
  sqlList?: (db: PrismaClient, filter: ListFilter<z.output<List>>) => Promise<Row[]>;
  references?: readonly Reference[];
  /** Extra rules for create beyond the references' (admin-only creation, membership roles). */
  authorizeCreate?: (ctx: AccessContext, body: NonNullable<z.output<NonNullable<Create>>>) => Awaitable<void>;
  /** Throws Forbidden when the caller sees the row but may not do this to it. Default: allowed. */
  authorize?: (
    ctx: AccessContext,
    row: z.output<Public>,
    action: "edit" | "delete",
    body?: z.output<NonNullable<Edit>>,
  ) => Awaitable<void>;
  /**
   * Takes the row locks under which `authorize`'s invariant checks stay true until the change
   * commits (two OWNERs stepping down at once must not both pass "another OWNER remains"). When
   * set, an edit or delete runs in one transaction: lock, read the row again, authorize, write.
   */
  lockForChange?: (ctx: AccessContext, row: z.output<Public>) => Promise<void>;
  /**
   * The same for a create, from its body: when set, a create runs in one transaction, its locks
   * first, so `createData`'s checks stay true until it commits.
   */
  lockForCreate?: (ctx: AccessContext, body: z.output<NonNullable<Create>>) => Promise<void>;
  /**
   * Writes what an edit or delete implies for other rows, in its transaction right after it:
   * `after` is the row as edited, null when deleted (a member who leaves a team stops hosting
   * its event types); `body`, an edit's body (a booking's rejection reason for its e-mails).
   */
  afterChange?: (
    ctx: AccessContext,
    before: z.output<Public>,
    after: z.output<Public> | null,
    body?: z.output<NonNullable<Edit>>,
  ) => Promise<void>;
  /** Turns the validated body (owner column filled in) into Prisma create data. */
  createData?: (body: z.output<NonNullable<Create>>, ctx: AccessContext) => Awaitable<object>;
  /** Turns the validated body into Prisma update data, given the stored row. */
  editData?: (
    body: z.output<NonNullable<Edit>>,
    row: z.output<Public>,
    ctx: AccessContext,
  ) => Awaitable<object>;
  /** Operations answered the resource's own way instead of the generic CRUD. */
  custom?: Partial<Record<Operation, CustomOperation>>;
  actions?: readonly CustomAction[];
}

export type Row = Record<string, unknown> & { id: unknown };

/** What the generic list reads: rows `viewer` may see (null: an admin, who sees all), filtered, one page. */
export interface ListFilter<Query> {
  viewer: number | null;
  /** The admin `userId` filter: rows owned by these users. */
  userIds: number[] | undefined;
  query: Query;
  skip: number;
  take: number;
}

/** The subset of a Prisma model delegate the factory uses. */
export interface Delegate {
  findMany(args: {
    where: object;
    select: object;
    orderBy: object;
    skip: number;
    take: number;
  }): Promise<Row[]>;
  findFirst(args: { where: object; select: object }): Promise<Row | null>;
  count(args: { where: object }): Promise<number>;
  create(args: { data: object; select: object }): Promise<Row>;
  update(args: { where: object; data: object; select: object }): Promise<Row>;
  delete(args: { where: object }): Promise<unknown>;
}

/** A resource as the factory sees it: the module's declaration with its types erased. */
export interface Resource {
  path: string;
  description: string | undefined;
  refusals: { create?: readonly DeclaredRefusal[]; edit?: readonly DeclaredRefusal[] };
  name: string;
  keys: { singular: string; plural: string };
  operations: readonly Operation[];
  schemas: {
    public: z.ZodObject;
    create?: z.ZodType<object>;
    edit?: z.ZodType<object>;
    list: z.ZodType<object>;
  };
  params: z.ZodObject;
  /** Columns and relations the public shape shows, plus `id` (the key updates use): nothing else is read. */
  select: object;
  /** A row as answered: what was read, plus the fixed fields. */
  present(row: Row): Row;
  jsonColumns: readonly string[];
  ownerColumn?: string;
  actAs?: string;
  countTotal: boolean;
  sqlList?: (db: PrismaClient, filter: ListFilter<object>) => Promise<Row[]>;
  references: readonly Reference[];
  delegate(db: PrismaClient): Delegate;
  keyWhere(key: unknown): object;
  formatKey(key: unknown): string;
  /** The path id of a row. */
  idOf(row: object): string;
  ownedBy(userIds: number[]): object;
  visibleTo(userId: number): object;
  listWhere(query: object): object;
  authorizeCreate(ctx: AccessContext, body: object): Awaitable<void>;
  authorize(ctx: AccessContext, row: Row, action: "edit" | "delete", body?: object): Awaitable<void>;
  lockForChange: ((ctx: AccessContext, row: Row) => Promise<void>) | undefined;
  lockForCreate: ((ctx: AccessContext, body: object) => Promise<void>) | undefined;
  afterChange:
    | ((ctx: AccessContext, before: Row, after: Row | null, body?: object) => Promise<void>)
    | undefined;
  createData(body: object, ctx: AccessContext): Awaitable<object>;
  editData(body: object, row: Row, ctx: AccessContext): Awaitable<object>;
  custom: Partial<Record<Operation, CustomOperation>>;
  actions: readonly CustomAction[];
}

/**
 * `{column: true}` for every field of a public shape, relations replaced by their nested select,
 * fixed fields (no column holds them) left out.
 */
export function selectOf(
  shape: z.ZodObject,
  relations: Record<string, object> = {},
  fixed: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(shape.shape)
      .filter((key) => !(key in fixed))
      .map((key) => [key, relations[key] ?? true]),
  );
}

/** Adds the fixed fields to a row read by `selectOf`'s select (the row itself when there are none). */
export function presenter(fixed: Readonly<Record<string, unknown>> = {}): (row: Row) => Row {
  return Object.keys(fixed).length === 0 ? (row) => row : (row) => ({ ...row, ...fixed });
}

const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

export function defineResource<
  M extends ModelName,
  Key,
  Public extends z.ZodObject,
  Create extends z.ZodType<object> | undefined = undefined,
  Edit extends z.ZodType<object> | undefined = undefined,
  List extends z.ZodType<object> = z.ZodType<object>,
>(definition: ResourceDefinition<M, Key, Public, Create, Edit, List>): Resource {
  const { id, ownedBy, operations, schemas } = definition;
  // A route the table offers must have its body schema; fail at boot, not on a request.
  const custom = definition.custom ?? {};
  if (
    operations.includes("create") !== Boolean(schemas.create ?? custom.create) ||
    operations.includes("edit") !== Boolean(schemas.edit ?? custom.edit)
  ) {
    throw new Error(`${definition.path}: the create/edit operations and body schemas disagree`);
  }
  // The casts below erase the module's precise types: the factory validates every body and
  // query with these same schemas and loads rows with `select`, so the values it passes in
  // have exactly the types the module declared.
  type CreateBody = z.output<NonNullable<Create>>;
  type EditBody = z.output<NonNullable<Edit>>;
  type PublicRow = z.output<Public>;
  return {
    path: definition.path,
    description: definition.description,
    refusals: definition.refusals ?? {},
    name: definition.name,
    keys: definition.keys,
    operations: definition.operations,
    schemas: definition.schemas,
    params: id.params,
    select: { ...selectOf(definition.schemas.public, definition.relations, definition.fixed), id: true },
    present: presenter(definition.fixed),
    jsonColumns: definition.jsonColumns ?? [],
    ownerColumn: definition.ownerColumn,
    actAs: definition.actAs ?? (definition.ownerColumn ? "userId" : undefined),
    countTotal: definition.countTotal ?? false,
    sqlList: definition.sqlList as Resource["sqlList"],
    references: definition.references ?? [],
    // Prisma's delegates are generic per model; the factory needs only their common shape.
    delegate: (db) => (db as unknown as Record<string, Delegate>)[lowerFirst(definition.model)]!,
    keyWhere: (key) => id.where(key as Key),
    formatKey: (key) => id.format(key as Key),
    idOf: (row) => id.format(id.key(row as PublicRow)),
    ownedBy,
    visibleTo: definition.visibleTo ?? ((userId) => ownedBy([userId])),
    listWhere: (query) => definition.listWhere?.(query as z.output<List>) ?? {},
    authorizeCreate: (ctx, body) => definition.authorizeCreate?.(ctx, body as NonNullable<CreateBody>),
    authorize: (ctx, row, action, body) =>
      definition.authorize?.(ctx, row as PublicRow, action, body as EditBody | undefined),
    lockForChange: definition.lockForChange as Resource["lockForChange"],
    lockForCreate: definition.lockForCreate as Resource["lockForCreate"],
    afterChange: definition.afterChange as Resource["afterChange"],
    createData: (body, ctx) => definition.createData?.(body as CreateBody, ctx) ?? body,
    editData: (body, row, ctx) => definition.editData?.(body as EditBody, row as PublicRow, ctx) ?? body,
    custom,
    actions: definition.actions ?? [],
  };
}
