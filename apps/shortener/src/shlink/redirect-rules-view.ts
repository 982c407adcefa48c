// Redirect rules between Shlink's conditions ({type, matchKey, matchValue}) and the model's
// (shorts/redirect-rules.ts, validated by @app/schemas' RedirectCondition): a table of the types
// whose names differ; any other type passes through under its own name, so a condition type
// the model gains with Shlink's name (and `param`/`value` fields) flows through unchanged.
import { RedirectRules } from "@app/schemas/shortener";
import { z } from "zod";
import { invalidData } from "./problems.ts";

/** Shlink's condition type → the model's, where they differ. */
const TO_MODEL: Record<string, string> = {
  "geolocation-country-code": "country",
  "query-param": "query",
};
const FROM_MODEL = Object.fromEntries(Object.entries(TO_MODEL).map(([shlink, model]) => [model, shlink]));
/** The model's types whose one field is a key (a query parameter's name) rather than a value. */
const KEYED = new Set(["query"]);

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

const ShlinkRules = z.looseObject({
  redirectRules: z.array(
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
  ),
});

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
      if (KEYED.has(modelType)) return { type: modelType, param: matchKey ?? "", value: matchValue ?? "" };
      // Shlink's device values are lower case; the model's too.
      return { type: modelType, value: matchValue ?? "" };
    }),
  }));
  const model = RedirectRules.safeParse(rules);
  if (!model.success) throw invalidData(["redirectRules"]);
  return model.data;
}
