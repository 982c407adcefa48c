// API changes never break a client unannounced (issue 37, ADR 0212): the committed documents
// against the released ones (openapi/released/), and the checker itself on deliberate breaks.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { breakingChanges, DOCUMENTS, releasedDocument, unannounced } from "../scripts/api-compat.ts";

// biome-ignore lint/suspicious/noExplicitAny: the fixtures edit the documents' JSON in place, deep and untyped
type Json = Record<string, any>;
const read = (file: string): Json => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), "utf8"));
const changelog = readFileSync(new URL("../CHANGELOG.md", import.meta.url), "utf8");
const copy = (document: Json): Json => structuredClone(document);
const changes = (before: Json, after: Json) =>
  breakingChanges(before, after).map((b) => `${b.operation}: ${b.change}`);

describe("the served documents against the released ones", () => {
  it.each(DOCUMENTS)("openapi/%s.json breaks nothing CHANGELOG.md does not announce", (name) => {
    const breaks = breakingChanges(releasedDocument(name), read(`openapi/${name}.json`));
    expect(unannounced(breaks, changelog)).toEqual([]);
  });
});

describe("the checker", () => {
  const shortener = read("openapi/released/shortener.json");
  const scheduling = read("openapi/released/scheduling.json");

  it("finds nothing between a document and itself", () => {
    expect(changes(shortener, copy(shortener))).toEqual([]);
    expect(changes(scheduling, copy(scheduling))).toEqual([]);
  });

  it("fails on a deliberate break, and passes once the Unreleased section announces it", () => {
    const after = copy(shortener);
    delete after.components.schemas.Short.properties.visits;
    const breaks = breakingChanges(shortener, after);
    expect(breaks.map((b) => b.operation)).toContain("POST /api/shorts");
    expect(breaks).toContainEqual({ operation: "GET /api/shorts/{id}", change: "200.visits: removed" });
    expect(unannounced(breaks, changelog)).not.toEqual([]);
    const announcing = `# Changelog\n\n## Unreleased\n\n${[...new Set(breaks.map((b) => b.operation))]
      .map(
        (operation) =>
          `- **Breaking**: \`${operation}\` answers no \`visits\`. Migration: read GET /api/stats.`,
      )
      .join("\n")}\n\n## 2026-11-28\n`;
    expect(unannounced(breaks, announcing)).toEqual([]);
    // A line without its migration note, or under a released date, announces nothing.
    expect(unannounced(breaks, announcing.replaceAll("Migration", "Note"))).toEqual(breaks);
    expect(unannounced(breaks, announcing.replace("## Unreleased", "## 2026-12-01"))).toEqual(breaks);
  });

  it("finds a removed path, a removed operation, and a new required input", () => {
    const after = copy(shortener);
    delete after.paths["/api/me"];
    delete after.paths["/api/shorts/{id}"].delete;
    after.paths["/api/shorts"].get.parameters.push({
      in: "query",
      name: "owner",
      required: true,
      schema: { type: "string" },
    });
    after.components.schemas.NewShort.required = [...after.components.schemas.NewShort.required, "name"];
    expect(changes(shortener, after)).toEqual(
      expect.arrayContaining([
        "GET /api/me: path removed",
        "DELETE /api/shorts/{id}: operation removed",
        "GET /api/shorts: query owner: a new required parameter",
        "POST /api/shorts: body: name is newly required",
      ]),
    );
  });

  it("finds a narrowed input and a removed enum value, and lets a widened one pass", () => {
    const narrowed = copy(scheduling);
    narrowed.components.schemas.EventTypeCreate.properties.periodType.enum = [
      "UNLIMITED",
      "ROLLING",
      "RANGE",
    ];
    expect(changes(scheduling, narrowed)).toContain(
      'POST /api/v1/event-types: body.periodType: no longer accepts ["ROLLING_WINDOW"]',
    );

    const shorter = copy(shortener);
    shorter.components.schemas.NewShort.properties.url.maxLength = 100;
    expect(changes(shortener, shorter)).toContain("POST /api/shorts: body.url: maxLength 2048 → 100");
    const longer = copy(shortener);
    longer.components.schemas.NewShort.properties.url.maxLength = 4096;
    expect(changes(shortener, longer)).toEqual([]);
  });

  it("finds an answer that widens into a union (the visit log's CSV joining its JSON) and a removed field", () => {
    const before = copy(shortener);
    delete before.paths["/api/shorts/{id}/logs"].get.responses["200"].content["text/csv"];
    expect(changes(before, shortener)).toContain(
      "GET /api/shorts/{id}/logs: 200: widened into a union of application/json and text/csv",
    );
    const optional = copy(shortener);
    optional.components.schemas.Short.required = optional.components.schemas.Short.required.filter(
      (name: string) => name !== "shorturl",
    );
    expect(changes(shortener, optional)).toContain(
      "GET /api/shorts/{id}: 200.shorturl: no longer always present",
    );
  });

  it("lets additions pass: an optional parameter, an answer's new field, a new operation", () => {
    const after = copy(shortener);
    after.paths["/api/shorts"].get.parameters.push({
      in: "query",
      name: "color",
      required: false,
      schema: { type: "string" },
    });
    after.components.schemas.Short.properties.color = { type: "string" };
    after.paths["/api/colors"] = { get: { responses: { 200: { description: "Colors" } } } };
    expect(changes(shortener, after)).toEqual([]);
  });
});
