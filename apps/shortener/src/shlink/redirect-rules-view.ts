// Redirect rules between Shlink's conditions ({type, matchKey, matchValue}) and the model's
// (shorts/redirect-rules.ts, validated by @app/schemas' RedirectCondition): every type of Shlink
// 5.1 but the city. A table of the types whose names differ; any other type passes through under
// its own name. Shlink's matchKey is the model's `param`, its matchValue the model's `value`.
import { RedirectRules } from "@app/schemas/shortener";
import { z } from "zod";
import { invalidData } from "./problems.ts";

/** Shlink's condition type → the model's, where they differ. */
const TO_MODEL: Record<string, string> = {
  "geolocation-country-code": "country",
  "query-param": "query",
};
const FROM_MODEL = Object.fromEntries(Object.entries(TO_MODEL).map(([shlink, model]) => [model, shlink]));
/** The model's types with a key (a query parameter's name): with a value too, or the key alone. */
const KEY_AND_VALUE = new Set(["query"]);
const KEY_ONLY = new Set(["any-value-query-param", "valueless-query-param"]);

interface ModelCondition {
  type: string;
  param?: string;
  value?: string;
}

/** A stored condition as Shlink shows it (an unused key or value is null). */
export function conditionView(condition: ModelCondition) {
  return {
    type: FROM_MODEL[condition.type] ?? condition.type,
    matchKey: condition.param ?? null,
    matchValue: condition.value ?? null,
  };
}

/** The stored rules (null: none) as GET …/redirect-rules answers them. */
export function rulesView(longUrl: string, stored: unknown) {
  const rules = Array.isArray(stored) ? (stored as { url: string; conditions: ModelCondition[] }[]) : [];
  return {
    defaultLongUrl: longUrl,
    redirectRules: rules.map((rule, index) => ({
      longUrl: rule.url,
      priority: index + 1,
      conditions: rule.conditions.map(conditionView),
    })),
  };
}

export const ShlinkRules = z
  .looseObject({
    redirectRules: z
      .array(
        z.looseObject({
          longUrl: z.string(),
          conditions: z.array(
            z.looseObject({
              type: z.string(),
              matchKey: z.string().nullable().optional(),
              matchValue: z.string().nullable().optional(),
            }),
          ),
        }),
      )
      .describe(
        "The rules, in priority order: every condition type of Shlink 5.1 but geolocation-city-name, " +
          "validated as the existing API validates them (an invalid value is invalid-data)",
      )
      .meta({
        example: [
          {
            longUrl: "https://example.com/android",
            conditions: [{ type: "device", matchKey: null, matchValue: "android" }],
          },
        ],
      }),
  })
  .meta({ id: "ShortUrlRedirectRulesEdition" });

/**
 * Shlink's rules as the model's, validated by the model's own schema: a type it does not know,
 * or a value it refuses, is invalid-data naming redirectRules.
 */
export function rulesFromShlink(body: unknown) {
  const parsed = ShlinkRules.safeParse(body ?? {});
  if (!parsed.success) throw invalidData(["redirectRules"]);
  const rules = parsed.data.redirectRules.map((rule) => ({
    url: rule.longUrl,
    conditions: rule.conditions.map(({ type, matchKey, matchValue }) => {
      const modelType = TO_MODEL[type] ?? type;
      if (KEY_AND_VALUE.has(modelType))
        return { type: modelType, param: matchKey ?? "", value: matchValue ?? "" };
      if (KEY_ONLY.has(modelType)) return { type: modelType, param: matchKey ?? "" };
      // Shlink's device values are lower case; the model's too.
      return { type: modelType, value: matchValue ?? "" };
    }),
  }));
  const model = RedirectRules.safeParse(rules);
  if (!model.success) throw invalidData(["redirectRules"]);
  return model.data;
}
