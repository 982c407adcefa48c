// Ownership, driven from the resource table: another user can neither see nor touch a row
// (404, and the row is unchanged in the database); an admin can do everything, also for
// another user through `userId`; a non-admin naming someone else is refused.
import { describe, expect, it } from "vitest";
import type { Resource } from "../src/resources/resource.ts";
import { setupApp } from "./helpers.ts";
import {
  apiClient,
  type Caller,
  fixtures,
  makeRow,
  newUser,
  resource,
  resources,
  storedRow,
} from "./resource-fixtures.ts";

const t = setupApp();
const call = apiClient(t);

const itemUrl = (target: Resource, row: object) =>
  `/api/v1/${target.path}/${encodeURIComponent(target.idOf(row))}`;

/** Every id the caller's list shows, page by page. */
async function listedIds(target: Resource, caller: Caller, query = ""): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const response = await call("GET", `/api/v1/${target.path}?take=100&page=${page}${query}`, caller);
    expect(response.status, response.text).toBe(200);
    const rows = response.body[target.keys.plural] as object[];
    ids.push(...rows.map((row) => target.idOf(row)));
    if (rows.length < 100) return ids;
  }
}

const offers = (target: Resource, operation: string) => target.operations.some((op) => op === operation);

describe.each(resources)("$path", (target) => {
  const fixture = fixtures[target.path]!;

  it("is invisible to another user: 404 on read, edit and delete, absent from their list, unchanged", async () => {
    const owner = await newUser(t.prisma);
    const stranger = await newUser(t.prisma);
    const row = await makeRow(call, t.prisma, target, owner);
    const id = target.idOf(row);
    const before = await storedRow(t.prisma, target, id);

    const read = await call("GET", itemUrl(target, row), stranger);
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ message: `${target.name} with id: ${id} not found` });
    if (offers(target, "edit")) {
      expect((await call("PATCH", itemUrl(target, row), stranger, fixture.edit)).status).toBe(404);
    }
    if (offers(target, "delete"))
      expect((await call("DELETE", itemUrl(target, row), stranger)).status).toBe(404);
    expect(await listedIds(target, stranger)).not.toContain(id);

    expect(await storedRow(t.prisma, target, id)).toEqual(before);
  });

  it("is open to an admin: read, listed, edited and deleted", async () => {
    const owner = await newUser(t.prisma);
    const admin = await newUser(t.prisma, { admin: true });
    const row = await makeRow(call, t.prisma, target, owner);

    const read = await call("GET", itemUrl(target, row), admin);
    expect(read.status).toBe(200);
    expect(target.idOf(read.body[target.keys.singular] as object)).toBe(target.idOf(row));
    expect(await listedIds(target, admin)).toContain(target.idOf(row));
    if (offers(target, "edit")) {
      const edited = await call("PATCH", itemUrl(target, row), admin, fixture.edit);
      expect(edited.status, edited.text).toBe(200);
      expect(edited.body[target.keys.singular]).toMatchObject(fixture.edit!);
    }
    if (offers(target, "delete")) {
      const deleted = await call("DELETE", itemUrl(target, row), admin);
      expect(deleted.status, deleted.text).toBe(200);
      // A booking's DELETE cancels it, as in v1: the row stays.
      const stored = await storedRow(t.prisma, target, target.idOf(row));
      if (target.custom.delete) expect(stored).toMatchObject({ status: "CANCELLED" });
      else expect(stored).toBeNull();
    }
  });
});

describe.each(resources.filter((r) => r.path !== "users"))("$path list userId filter", (target) => {
  it("is refused to a non-admin naming someone else, allowed for themself", async () => {
    const user = await newUser(t.prisma);
    const other = await newUser(t.prisma);
    const refused = await call("GET", `/api/v1/${target.path}?userId=${other.user.id}`, user);
    expect(refused.status).toBe(403);
    const mixed = await call(
      "GET",
      `/api/v1/${target.path}?userId=${user.user.id}&userId=${other.user.id}`,
      user,
    );
    expect(mixed.status).toBe(403);
    expect((await call("GET", `/api/v1/${target.path}?userId=${user.user.id}`, user)).status).toBe(200);
  });

  // A membership belongs to its member, not to the team owner who created it: the
  // memberships tests cover its admin filter.
  if (target.path !== "memberships") {
    it("gives an admin exactly that user's rows", async () => {
      const owner = await newUser(t.prisma);
      const someoneElse = await newUser(t.prisma);
      const admin = await newUser(t.prisma, { admin: true });
      const row = await makeRow(call, t.prisma, target, owner);
      await makeRow(call, t.prisma, target, someoneElse);

      const filtered = await listedIds(target, admin, `&userId=${owner.user.id}`);
      expect(filtered).toContain(target.idOf(row));
      expect(filtered.sort()).toEqual((await listedIds(target, owner)).sort());
    });
  }
});

// Bookings are made by booking a slot (bookings.test.ts), not by the generic create.
const creatable = resources.filter(
  (r) => r.operations.includes("create") && r.path !== "users" && !r.custom.create,
);

describe.each(creatable.filter((r) => r.actAs))("$path created for another user", (target) => {
  const fixture = fixtures[target.path]!;

  it("lets an admin create it for another user, who then owns it", async () => {
    const owner = await newUser(t.prisma);
    const admin = await newUser(t.prisma, { admin: true });
    const body = await fixture.createBody!(t.prisma, owner.user);
    const created = await call("POST", `/api/v1/${target.path}`, admin, {
      ...body,
      [target.actAs!]: owner.user.id,
    });
    expect(created.status, created.text).toBe(201);
    const row = created.body[target.keys.singular] as Record<string, unknown>;
    if (target.ownerColumn) expect(row[target.ownerColumn]).toBe(owner.user.id);
    expect((await call("GET", itemUrl(target, row), owner)).status).toBe(200);
  });

  it("answers 404 when the admin names a user who does not exist", async () => {
    const admin = await newUser(t.prisma, { admin: true });
    const body = await fixture.createBody!(t.prisma, admin.user);
    const response = await call("POST", `/api/v1/${target.path}`, admin, {
      ...body,
      [target.actAs!]: 2147483647,
    });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe("User with id: 2147483647 not found");
  });

  it("refuses a non-admin naming another user and stores nothing; naming themself is fine", async () => {
    const user = await newUser(t.prisma);
    const other = await newUser(t.prisma);
    const count = () => target.delegate(t.prisma).count({ where: {} });
    const before = await count();
    const body = await fixture.createBody!(t.prisma, user.user);
    const refused = await call("POST", `/api/v1/${target.path}`, user, {
      ...body,
      [target.actAs!]: other.user.id,
    });
    expect(refused.status).toBe(403);
    expect(await count()).toBe(before);

    const own = await call("POST", `/api/v1/${target.path}`, user, {
      ...body,
      [target.actAs!]: user.user.id,
    });
    expect(own.status, own.text).toBe(201);
  });
});

describe.each(creatable.filter((r) => r.references.some((ref) => ref.need !== "exist")))(
  "$path pointing at another user's rows",
  (target) => {
    const fixture = fixtures[target.path]!;

    it("is refused to a non-admin (404: they cannot see those rows) and allowed to an admin", async () => {
      const owner = await newUser(t.prisma);
      const stranger = await newUser(t.prisma);
      const admin = await newUser(t.prisma, { admin: true });
      const body = await (fixture.referencingBody ?? fixture.createBody)!(t.prisma, owner.user);
      const count = () => target.delegate(t.prisma).count({ where: {} });
      const before = await count();

      const refused = await call("POST", `/api/v1/${target.path}`, stranger, body);
      expect(refused.status, refused.text).toBe(404);
      expect(refused.body.message).toMatch(/ with id: \d+ not found$/);
      expect(await count()).toBe(before);

      // For the owner, when the resource has one; then the owner can read what was made.
      const forOwner = target.actAs ? { [target.actAs]: owner.user.id } : {};
      const created = await call("POST", `/api/v1/${target.path}`, admin, { ...body, ...forOwner });
      expect(created.status, created.text).toBe(201);
      const row = created.body[target.keys.singular] as object;
      expect((await call("GET", itemUrl(target, row), owner)).status).toBe(200);
    });
  },
);

describe("edits pointing at another user's rows", () => {
  it("are refused with 404 and change nothing (attendee moved to a stranger's booking)", async () => {
    const attendees = resource("attendees");
    const owner = await newUser(t.prisma);
    const stranger = await newUser(t.prisma);
    const row = await makeRow(call, t.prisma, attendees, owner);
    const strangersBooking = await t.prisma.booking.create({
      data: {
        uid: `x-${Date.now()}`,
        userId: stranger.user.id,
        title: "Theirs",
        startTime: new Date("2026-01-01T10:00:00Z"),
        endTime: new Date("2026-01-01T11:00:00Z"),
      },
    });
    const before = await storedRow(t.prisma, attendees, attendees.idOf(row));
    const response = await call("PATCH", itemUrl(attendees, row), owner, { bookingId: strangersBooking.id });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe(`Booking with id: ${strangersBooking.id} not found`);
    expect(await storedRow(t.prisma, attendees, attendees.idOf(row))).toEqual(before);
  });
});
