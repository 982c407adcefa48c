// The document says what the server does: for path ids, numbers in queries and the rules of
// body fields, the value the served document admits (its pattern, lengths, uniqueItems, type)
// is exactly the value the server accepts, on samples chosen at each rule's edges.
import { TIME_ZONES } from "@app/schemas/scheduling";
import { documentAdmits, documentAdmitsText } from "@app/testing/database";
import { documentValidator } from "@app/testing/fuzz";
import type { OpenAPIV3 } from "openapi-types";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, setupApp, withKey } from "./helpers.ts";

const t = setupApp();

type Schema = Parameters<typeof documentAdmits>[1];
let doc: OpenAPIV3.Document;
let apiKey: string;
let userId: number;
let scheduleId: number;

beforeAll(async () => {
  doc = (await t.app.inject({ url: "/docs" })).json();
  const caller = await createUser(t.prisma);
  apiKey = caller.apiKey;
  userId = caller.user.id;
  const schedule = await t.app.inject({
    method: "POST",
    url: withKey("/api/v1/schedules", apiKey),
    payload: { name: "Rules" },
  });
  scheduleId = schedule.json().schedule.id;
});

const admits = (schema: unknown, value: unknown) => documentAdmits(doc, schema as Schema, value);
/** Whether the document admits a path or query parameter written as `text`. */
const admitsText = (schema: unknown, text: string) => documentAdmitsText(doc, schema as Schema, text);

function parameter(path: string, name: string): OpenAPIV3.ParameterObject {
  const operations = doc.paths[path] as Record<string, OpenAPIV3.OperationObject>;
  const operation = Object.values(operations)[0]!;
  return (operation.parameters as OpenAPIV3.ParameterObject[]).find((p) => p.name === name)!;
}

/** A property of a component schema, following `properties` and `items` along `path`. */
function property(component: string, ...path: (string | number)[]): Schema {
  let schema = doc.components!.schemas![component] as Record<string, unknown>;
  for (const step of path) {
    schema =
      step === "items" ? (schema.items as Record<string, unknown>) : (schema.properties as never)[step];
  }
  return schema as Schema;
}

const ID_SAMPLES = [
  "0",
  "1",
  "7",
  "2147483647",
  "2147483648",
  "99999999999",
  "007",
  "-1",
  "+1",
  "1.5",
  "1e3",
  "abc",
  "1_1",
  "0_1",
  "1_0",
  "01_1",
  "1_2147483647",
  "1_2147483648",
  "1_2_3",
  "1_google_calendar_x",
  "1_google_calendar_",
  "1__calendar_x",
  "1_x_calendar_a_calendar_b",
  "0_google_calendar_x",
  "x_google_calendar_y",
];

describe("path ids", () => {
  it("integer ids: integers from 1 to 2147483647, written without sign or leading zeros, and say so", () => {
    const id = parameter("/api/v1/users/{id}", "id");
    expect(id.description).toContain("2147483647");
    // The numbers answers carry, so typed clients pass them as they got them (ADR 0250).
    expect(id.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 2147483647 });
    for (const value of ["1", "9", "10", "2147483647"])
      expect(admitsText(id.schema, value), value).toBe(true);
    for (const value of ["0", "2147483648", "9999999999", "007", "-1", "1.5", "1e3", ""]) {
      expect(admitsText(id.schema, value), value).toBe(false);
    }
  });

  it("ids in queries are integers too; composite ids stay strings", () => {
    const integer = { type: "integer", minimum: 1, maximum: 2147483647 };
    const single = (path: string, name: string) => parameter(path, name).schema;
    const repeated = (path: string, name: string) =>
      (parameter(path, name).schema as OpenAPIV3.SchemaObject).anyOf?.map((branch) =>
        "items" in branch ? branch.items : branch,
      );
    expect(single("/api/v1/slots", "eventTypeId")).toMatchObject(integer);
    for (const name of ["userId", "teamId", "eventTypeId"]) {
      expect(single("/api/v1/availability", name), name).toMatchObject(integer);
    }
    for (const [path, name] of [
      ["/api/v1/attendees", "userId"],
      ["/api/v1/memberships", "teamId"],
    ] as const) {
      expect(repeated(path, name), `${path} ${name}`).toEqual([
        expect.objectContaining(integer),
        expect.objectContaining(integer),
      ]);
    }
    for (const path of ["/api/v1/memberships/{id}", "/api/v1/selected-calendars/{id}"]) {
      expect(parameter(path, "id").schema, path).toMatchObject({ type: "string" });
    }
  });

  it("every item path: the document's pattern and the server agree on every sample", async () => {
    const itemPaths = Object.keys(doc.paths).filter((path) => path.includes("{id}"));
    expect(itemPaths.length).toBeGreaterThan(14);
    for (const path of itemPaths) {
      const operations = doc.paths[path] as Record<string, OpenAPIV3.OperationObject>;
      const method = "get" in operations ? "get" : Object.keys(operations)[0]!;
      const { schema } = parameter(path, "id");
      for (const sample of ID_SAMPLES) {
        const url = withKey(path.replace("{id}", encodeURIComponent(sample)), apiKey);
        const response = await t.app.inject({ method: method.toUpperCase() as "GET", url });
        const where = `${method.toUpperCase()} ${path} id=${sample}`;
        if (admitsText(schema, sample)) {
          expect([200, 404], where).toContain(response.statusCode);
        } else {
          expect(response.statusCode, where).toBe(400);
          expect(response.json().issues, where).toEqual([expect.objectContaining({ path: "id" })]);
        }
      }
    }
  });
});

describe("numbers in queries", () => {
  it("a booking body names the booker by `responses` or by `name` and `email`, never both (oneOf), as the server requires", async () => {
    // ajv, which walks objects and reads oneOf and not (documentAdmits checks single values).
    const validate = documentValidator(doc);
    const bookingAdmits = (body: object) => validate({ $ref: "#/components/schemas/BookingCreate" }, body);
    const base = { eventTypeId: 1, start: "2030-01-07T09:00:00Z", timeZone: "UTC", language: "en" };
    const responses = { name: "Ann", email: "ann@example.com" };
    // The document and the server agree on each way of naming the booker, and on mixing them.
    const cases: [object, boolean][] = [
      [{ ...base, responses }, true],
      [{ ...base, name: "Ann", email: "ann@example.com" }, true],
      [{ ...base, responses, notes: "hi" }, false],
      [{ ...base, responses, guests: [] }, false],
      [{ ...base, responses, customInputs: [] }, false],
      [{ ...base, responses, email: "ann@example.com" }, false],
      // v1 tests the legacy fields for truth: empty or null ones are none.
      [{ ...base, responses, notes: "", smsReminderNumber: null }, true],
      [{ ...base, responses, name: "Ann", email: "ann@example.com" }, false],
    ];
    for (const [body, admitted] of cases) {
      expect(bookingAdmits(body), JSON.stringify(body)).toBe(admitted);
      const answer = await t.app.inject({
        method: "POST",
        url: withKey("/api/v1/bookings", apiKey),
        payload: body,
      });
      // Admitted bodies get past the booker rule (the slot may still be refused: not a 400 about the booker).
      if (admitted) expect(answer.body).not.toMatch(/Legacy Props|customInputs and responses|Send either/);
      else expect(answer.statusCode, answer.body).toBe(400);
    }
    const neither = await t.app.inject({
      method: "POST",
      url: withKey("/api/v1/bookings", apiKey),
      payload: {
        eventTypeId: 1,
        start: "2030-01-07T09:00:00Z",
        timeZone: "UTC",
        language: "en",
        metadata: {},
      },
    });
    expect(neither.statusCode, neither.body).toBe(400);
    expect(neither.json().issues).toContainEqual(expect.objectContaining({ path: "responses" }));
    // An empty legacy name counts as none, as the document's anyOf now says (minLength 1).
    const emptyName = await t.app.inject({
      method: "POST",
      url: withKey("/api/v1/bookings", apiKey),
      payload: {
        eventTypeId: 1,
        start: "2030-01-07T09:00:00Z",
        timeZone: "UTC",
        language: "en",
        name: "",
        email: "a@example.com",
      },
    });
    expect(emptyName.statusCode, emptyName.body).toBe(400);
  });

  it("dateFrom and dateTo: the document and the server agree, the empty value included", async () => {
    for (const name of ["dateFrom", "dateTo"]) {
      const { schema } = parameter("/api/v1/bookings", name);
      for (const value of ["", "2027-01-04", "2027-01-04T09:00:00Z"]) {
        const response = await t.app.inject({
          url: withKey(`/api/v1/bookings?${name}=${encodeURIComponent(value)}`, apiKey),
        });
        const where = `${name}=${JSON.stringify(value)}: ${response.body}`;
        expect(response.statusCode, where).toBe(admits(schema, value) ? 200 : 400);
      }
    }
  });

  it("page and take: the pattern states the bounds the server applies", async () => {
    for (const name of ["page", "take"]) {
      const { schema } = parameter("/api/v1/teams", name);
      for (const value of ["0", "1", "100", "101", "1000000", "1000001", "010", "1e2", "", "-1"]) {
        const response = await t.app.inject({ url: withKey(`/api/v1/teams?${name}=${value}`, apiKey) });
        expect(response.statusCode === 200, `${name}=${value}`).toBe(admitsText(schema, value));
      }
    }
  });
});

interface BodyCase {
  rule: string;
  method: "POST" | "PATCH";
  url: () => string;
  schema: () => Schema;
  body: (value: unknown, n: number) => object;
  values: unknown[];
  /** The `issues` path the server names. */
  field: string;
}

let n = 0;
const cases: BodyCase[] = [
  {
    rule: "a name is not empty nor blank and holds no NUL nor lone surrogate (minLength, pattern)",
    method: "POST",
    url: () => "/api/v1/teams",
    schema: () => property("TeamCreate", "name"),
    body: (name) => ({ name }),
    values: [
      "",
      " ",
      "\t\n",
      "a\u0000b",
      "a\ud800",
      " \udc00 ",
      "Acme",
      "  Acme  ",
      "Acme \ud83d\ude00",
      "x".repeat(255),
      "x".repeat(256),
    ],
    field: "name",
  },
  {
    rule: "a link is http(s):// without spaces or control characters (pattern)",
    method: "POST",
    url: () => "/api/v1/teams",
    schema: () => property("TeamCreate", "logoUrl"),
    body: (logoUrl) => ({ name: "Logo", logoUrl }),
    values: [
      "javascript:alert(1)",
      "ftp://example.com/logo.png",
      "https:example.com/logo.png",
      " https://example.com/logo.png",
      "https://example.com/logo.png ",
      "https://example.com/my logo.png",
      "https://example.com/logo\u0000.png",
      "https://example.com/logo.png",
      "HTTP://EXAMPLE.COM/LOGO.PNG",
      "HtTPs://;S}êwr",
      "https://exämple.com/logo.png",
      "https://example.com/lo|go.png",
    ],
    field: "logoUrl",
  },
  {
    rule: "an event type's location link is http(s) too",
    method: "POST",
    url: () => "/api/v1/event-types",
    schema: () => property("EventTypeCreate", "locations", "items", "link"),
    body: (link, i) => ({
      title: "Call",
      slug: `call-${i}`,
      length: 30,
      locations: [{ type: "link", link }],
    }),
    values: [
      "javascript:alert(1)",
      "data:text/html,hi",
      "https://meet.example.com/room",
      "http://x.example/y",
    ],
    field: "locations.0.link",
  },
  {
    rule: "a slug needs a letter or a digit (pattern)",
    method: "POST",
    url: () => "/api/v1/teams",
    schema: () => property("TeamCreate", "slug"),
    body: (slug) => ({ name: "Slugged", slug }),
    values: ["", "---", " _ ", "a\u0000", "Team One", "İstanbul", "\u212A9"],
    field: "slug",
  },
  {
    rule: "a time zone is a name of the TimeZone enum, letter case as listed (enum)",
    method: "POST",
    url: () => "/api/v1/teams",
    schema: () => property("TeamCreate", "timeZone"),
    body: (timeZone) => ({ name: "Zoned", timeZone }),
    values: [
      "+01:00",
      "",
      "Europe/London\u0000",
      "Europe/ London",
      "Europe/London",
      "europe/london",
      "utc",
      "UTC",
      "Etc/GMT+5",
      "US/Eastern",
      "Asia/Calcutta",
      "Mars/Olympus_Mons",
      "UTC+1",
    ],
    field: "timeZone",
  },
  {
    rule: "a colour is #rgb, #rgba, #rrggbb or #rrggbbaa in any case (pattern)",
    method: "POST",
    url: () => "/api/v1/teams",
    schema: () => property("TeamCreate", "brandColor"),
    body: (brandColor) => ({ name: "Coloured", brandColor }),
    values: ["#abc", "#ABCDEF", "#AbCd", "#ab", "red", "#abcdeg"],
    field: "brandColor",
  },
  {
    rule: "week days are each given at most once (uniqueItems)",
    method: "POST",
    url: () => "/api/v1/availabilities",
    schema: () => property("AvailabilityCreate", "days"),
    body: (days) => ({ scheduleId, startTime: "09:00", endTime: "10:00", days }),
    values: [[1, 1], [0, 6, 0], [], [1, 2, 3], [7]],
    field: "days",
  },
  {
    rule: "a username is not blank (pattern)",
    method: "PATCH",
    url: () => `/api/v1/users/${userId}`,
    schema: () => property("SchedulingUserEdit", "username"),
    body: (username) => ({ username }),
    values: ["", "   ", "a\u0000", `renamed-${process.pid}`],
    field: "username",
  },
  {
    rule: "an e-mail's domain labels neither start nor end with '-', and its lengths are RFC 5321's (format, pattern, maxLength)",
    method: "PATCH",
    url: () => `/api/v1/users/${userId}`,
    schema: () => property("SchedulingUserEdit", "email"),
    body: (email) => ({ email }),
    values: [
      "a@b-.com",
      "a@-b.com",
      "a@b.c",
      "a@@b.com",
      `e-${process.pid}@sub-domain.example.com`,
      `${"a".repeat(136)}@example.com`,
      `${"a".repeat(65)}@example.com`,
      `${`e${process.pid}`.padEnd(64, "x")}@example.com`,
      `e${process.pid}@${"b".repeat(64)}.com`,
      `${`f${process.pid}`.padEnd(64, "x")}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`,
      `${`f${process.pid}`.padEnd(64, "x")}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(58)}.com`,
    ],
    field: "email",
  },
  {
    rule: "free text holds no NUL nor lone surrogate (pattern)",
    method: "POST",
    url: () => "/api/v1/teams",
    schema: () => property("TeamCreate", "bio"),
    body: (bio) => ({ name: "Bio", bio }),
    values: ["a\u0000b", "a\ud800b", "\udfff", "\ude00\ud83d", "", "Hello", "\ud83d\ude00 \u{10FFFF}"],
    field: "bio",
  },
  {
    rule: "a booking's event type is an integer id (type, bounds)",
    method: "POST",
    url: () => "/api/v1/bookings",
    schema: () => property("BookingCreate", "eventTypeId"),
    body: (eventTypeId) => ({ eventTypeId, start: "2030-01-07T09:00:00Z", timeZone: "UTC", language: "en" }),
    values: ["1", 1.5, -1, 2147483648, null], // 0 is v1's dynamic group (docs/adr/0170)
    field: "eventTypeId",
  },
];

describe("body rules", () => {
  it.each(cases)(
    "$rule: the document and the server agree",
    async ({ method, url, schema, body, values, field }) => {
      for (const value of values) {
        const response = await t.app.inject({
          method,
          url: withKey(url(), apiKey),
          payload: body(value, ++n),
        });
        const where = `${field}=${JSON.stringify(value)}: ${response.body}`;
        if (admits(schema(), value)) {
          expect([200, 201], where).toContain(response.statusCode);
        } else {
          expect(response.statusCode, where).toBe(400);
          const paths = (response.json().issues as { path: string }[]).map((issue) => issue.path);
          expect(
            paths.some((path) => path === field || path.startsWith(`${field}.`)),
            where,
          ).toBe(true);
        }
      }
    },
  );

  it("states the rules as keywords: minLength, pattern, format, uniqueItems", () => {
    expect(property("TeamCreate", "name")).toMatchObject({ minLength: 1, pattern: expect.any(String) });
    expect(property("TeamCreate", "logoUrl")).toMatchObject({
      format: "uri",
      pattern: expect.stringMatching(/^\^/),
    });
    expect(property("AvailabilityCreate", "days")).toMatchObject({ uniqueItems: true });
    expect(property("AvailabilityEdit", "days")).toMatchObject({ uniqueItems: true });
    const zone = doc.components!.schemas!.TimeZone as Schema & { description: string; enum: string[] };
    expect(zone.enum).toHaveLength(TIME_ZONES.length);
    expect(zone.enum).toEqual(expect.arrayContaining(["Europe/London", "UTC", "US/Eastern"]));
    expect(zone.description).toMatch(/IANA/);
    expect(admits(property("EventTypeCreate", "description"), "a\u0000")).toBe(false);
    expect(admits(property("EventTypeCreate", "description"), "a\ud800")).toBe(false);
    expect(admits(property("EventTypeCreate", "description"), "a\ud83d\ude00")).toBe(true);
    expect(admits(property("EventTypeCreate", "hosts"), [])).toBe(true);
    expect((property("EventTypeCreate", "hosts") as { description: string }).description).toMatch(
      /at most once/,
    );
  });

  it("every time zone field a client sends, parameters included, is the TimeZone enum; every slug field describes its rule", () => {
    const zones: string[] = [];
    const slugs: { where: string; description: string }[] = [];
    const visit = (value: unknown, where: string, description?: string): void => {
      if (Array.isArray(value)) {
        for (const [i, item] of value.entries()) visit(item, `${where}/${i}`);
        return;
      }
      if (value === null || typeof value !== "object") return;
      const node = value as Record<string, unknown>;
      if (node.$ref === "#/components/schemas/TimeZone") zones.push(where);
      if (typeof node.pattern === "string" && node.pattern.includes("\\u0130")) {
        slugs.push({ where, description: String(node.description ?? description ?? "") });
      }
      for (const [key, child] of Object.entries(node)) {
        visit(child, `${where}/${key}`, key === "schema" ? (node.description as string) : undefined);
      }
    };
    visit(doc, "");
    expect(zones.length).toBeGreaterThan(10);
    expect(zones).toContainEqual(expect.stringMatching(/^\/paths\/\/api\/v1\/slots\//));
    for (const [component, field] of [
      ["TeamCreate", "timeZone"],
      ["SchedulingUserEdit", "timeZone"],
      ["ScheduleCreate", "timeZone"],
      ["AttendeeCreate", "timeZone"],
      ["BookingCreate", "timeZone"],
      ["EventTypeCreate", "timeZone"],
    ] as const) {
      expect(JSON.stringify(property(component, field)), `${component}.${field}`).toContain(
        '"#/components/schemas/TimeZone"',
      );
    }
    expect(slugs.length).toBeGreaterThan(3);
    for (const { where, description } of slugs)
      expect(description, where).toMatch(/needs a letter or a digit/);
  });

  it("time zones: a name the enum lacks is refused with the enum's message; a listed alias is kept as sent", async () => {
    const refused = await t.app.inject({
      method: "POST",
      url: withKey("/api/v1/teams", apiKey),
      payload: { name: "Zoned", timeZone: "Mars/Olympus_Mons" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      {
        path: "timeZone",
        message: "must be an IANA time zone such as Europe/London (letter case as in the tz database)",
      },
    ]);
    const kept = await t.app.inject({
      method: "POST",
      url: withKey("/api/v1/teams", apiKey),
      payload: { name: "Zoned", timeZone: "Asia/Calcutta" },
    });
    expect(kept.statusCode, kept.body).toBe(201);
    expect(kept.json().team.timeZone).toBe("Asia/Calcutta");
  });
});
