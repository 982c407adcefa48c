// Property-based fuzzing from the served OpenAPI document (issue 9 item 10): for every
// operation, fast-check sends valid, boundary and hostile requests as a normal user and as an
// admin on a seeded database. Properties: no 5xx, a 4xx changes nothing (the change journal of
// the scheduling schema before and after), what the document refuses is not answered 2xx, and
// what it admits is not refused unless the document declares the refusal (docs/adr/0214). The
// conformance watcher the app helper installs checks every answer against the document. Fixed
// seed (FUZZ_SEED), FUZZ_RUNS cases per operation. Each direction is a test file of its own
// (fuzz-refused, fuzz-admitted), so two workers share the suite; this module is their one setup.
import { secretScan } from "@app/testing/database";
import { type FuzzDirection, fuzzEveryOperation, type Operation } from "@app/testing/fuzz";
import { beforeAll, inject } from "vitest";
import { seedDemoData } from "../src/seed.ts";
import { setupApp } from "./helpers.ts";

/** The suite in `direction`: its app and seeded database, and a test per operation. */
export function fuzzScheduling(direction: FuzzDirection): void {
  const t = setupApp();
  const keys: Record<string, string> = {};
  let calendarId = "";

  beforeAll(async () => {
    for (const seeded of await seedDemoData(t.prisma, { prefix: "cal_" })) {
      secretScan.remember(seeded.apiKey);
      if (seeded.email === "admin@example.com") keys.admin = seeded.apiKey;
      if (seeded.email === "alice@example.com") keys.user = seeded.apiKey;
    }
    // Rows of the resources the demo data has none of, so ids hit something.
    const alice = await t.prisma.user.findUniqueOrThrow({ where: { email: "alice@example.com" } });
    const eventType = await t.prisma.eventType.findFirstOrThrow({ where: { userId: alice.id } });
    const calendar = await t.prisma.selectedCalendar.create({
      data: { userId: alice.id, integration: "google_calendar", externalId: "alice@example.com" },
    });
    calendarId = `${calendar.userId}_${calendar.integration}_${calendar.externalId}`;
    await t.prisma.destinationCalendar.create({
      data: { userId: alice.id, integration: "google_calendar", externalId: "alice@example.com" },
    });
    await t.prisma.eventTypeCustomInput.create({
      data: { eventTypeId: eventType.id, label: "Company", type: "TEXT", required: false },
    });
  });

  /** Ids of seeded rows (the database is fresh: every table's ids start at 1). */
  function knownIds(operation: Operation): string[] {
    if (operation.path.startsWith("/api/v1/memberships/")) return ["2_1", "3_1", "1_1", "2_2"];
    if (operation.path.startsWith("/api/v1/selected-calendars/"))
      return [encodeURIComponent(calendarId), "2_x_y"];
    return ["1", "2", "3", "4"];
  }

  fuzzEveryOperation(`fuzzing every operation of the scheduling document (${direction})`, {
    committedDocument: new URL("../../../openapi/scheduling.json", import.meta.url),
    target: () => ({ app: t.app, databaseUrl: t.databaseUrl }),
    schemas: ["scheduling"],
    requests: () => ({
      callers: ["user", "admin"],
      auth: (caller) => ({ query: { apiKey: keys[caller]! } }),
      knownIds,
    }),
    settings: inject("fuzz"),
    directions: [direction],
  });
}
