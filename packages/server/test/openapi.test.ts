import { describe, expect, it } from "vitest";
import { fitForOpenApi30 } from "../src/openapi.ts";

describe("fitForOpenApi30", () => {
  it("turns `nullable` beside an anyOf into a member that accepts null alone", () => {
    const input = {
      anyOf: [{ type: "number", enum: [12] }, { $ref: "#/x" }],
      nullable: true,
      description: "d",
    };
    expect(fitForOpenApi30(input)).toEqual({
      anyOf: [
        { type: "number", enum: [12] },
        { $ref: "#/x" },
        { enum: [null], nullable: true, type: "string" },
      ],
      description: "d",
    });
    expect(input.nullable).toBe(true); // a copy: the input is left alone
  });

  it("drops `nullable` from a schema of any value and keeps it next to a type", () => {
    const doc = { properties: { a: { nullable: true }, b: { type: "string", nullable: true } } };
    expect(fitForOpenApi30(doc)).toEqual({ properties: { a: {}, b: { type: "string", nullable: true } } });
  });

  it("inlines an anyOf of one member unless a keyword would be overwritten", () => {
    expect(
      fitForOpenApi30({ description: "d", anyOf: [{ type: "array", items: { type: "string" } }] }),
    ).toEqual({ description: "d", type: "array", items: { type: "string" } });
    const clash = { description: "d", anyOf: [{ type: "string", description: "e" }] };
    expect(fitForOpenApi30(clash)).toEqual(clash);
  });

  it("leaves a property named `nullable` or `anyOf` alone", () => {
    const doc = { type: "object", properties: { nullable: { type: "boolean" }, anyOf: { type: "string" } } };
    expect(fitForOpenApi30(doc)).toEqual(doc);
  });
});
