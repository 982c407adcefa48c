// Every resource's full life as its owner, driven from the resource table:
// create → read → list contains it → edit → delete → read 404.
import { describe, expect, it } from "vitest";
import { setupApp } from "./helpers.ts";
import { apiClient, fixtures, makeRow, newUser, resources } from "./resource-fixtures.ts";

const t = setupApp();
const call = apiClient(t);

// Bookings have their own create and delete (v1: book a slot, cancel): bookings.test.ts.
describe.each(resources.filter((r) => r.operations.includes("create") && !r.custom.create))(
  "$path as its owner",
  (resource) => {
    const { path, keys, name } = resource;
    const fixture = fixtures[path]!;

    it("creates, reads, lists, edits and deletes", async () => {
      const owner = await newUser(t.prisma, { admin: fixture.adminCreates });
      const body = await fixture.createBody!(t.prisma, owner.user);

      const created = await call("POST", `/api/v1/${path}`, owner, body);
      expect(created.status, created.text).toBe(201);
      expect(created.body.message).toBe(`${name} created successfully`);
      const row = created.body[keys.singular] as Record<string, unknown>;
      const id = resource.idOf(row);

      const read = await call("GET", `/api/v1/${path}/${encodeURIComponent(id)}`, owner);
      expect(read.status, read.text).toBe(200);
      expect(read.body[keys.singular]).toEqual(row);

      const list = await call("GET", `/api/v1/${path}`, owner);
      expect(list.status, list.text).toBe(200);
      expect((list.body[keys.plural] as object[]).map((item) => resource.idOf(item))).toContain(id);

      const edited = await call("PATCH", `/api/v1/${path}/${encodeURIComponent(id)}`, owner, fixture.edit);
      expect(edited.status, edited.text).toBe(200);
      expect(edited.body[keys.singular]).toMatchObject(fixture.edit!);
      const reread = await call("GET", `/api/v1/${path}/${encodeURIComponent(id)}`, owner);
      expect(reread.body[keys.singular]).toEqual(edited.body[keys.singular]);

      const deleted = await call("DELETE", `/api/v1/${path}/${encodeURIComponent(id)}`, owner);
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body).toEqual({ message: `${name} with id: ${id} deleted successfully` });

      const gone = await call("GET", `/api/v1/${path}/${encodeURIComponent(id)}`, owner);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ message: `${name} with id: ${id} not found` });
    });
  },
);

describe("payments (read-only) as the booking's owner", () => {
  const payments = resources.find((r) => r.path === "payments")!;

  it("lists and reads a payment of the caller's booking", async () => {
    const owner = await newUser(t.prisma);
    const payment = await makeRow(call, t.prisma, payments, owner);

    const list = await call("GET", "/api/v1/payments", owner);
    expect(list.status).toBe(200);
    expect(list.body.payments).toEqual([
      {
        id: payment.id,
        uid: payment.uid,
        bookingId: payment.bookingId,
        amount: 5000,
        fee: 150,
        currency: "eur",
        success: true,
        refunded: false,
        paymentOption: "ON_BOOKING",
      },
    ]);

    const read = await call("GET", `/api/v1/payments/${payment.id}`, owner);
    expect(read.status).toBe(200);
    expect(read.body.payment).toEqual((list.body.payments as object[])[0]);
  });
});
