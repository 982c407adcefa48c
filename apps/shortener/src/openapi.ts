import { z } from "zod";

// zod cannot say "this response is text/plain", so such responses carry a marker that
// markPlainTextResponses() turns into a text/plain content entry of the document.
const PLAIN_TEXT_MARKER = "x-plain-text";

/** A text/plain response (the seed answers 401, 403 and 404 in plain text). */
export const plainText = (description: string) =>
  z
    .string()
    .describe(description)
    .meta({ [PLAIN_TEXT_MARKER]: true });

type Json = Record<string, unknown>;

export function markPlainTextResponses<T extends object>(document: T): T {
  const paths = (document as Json).paths as Record<string, Record<string, Json>> | undefined;
  for (const operations of Object.values(paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      for (const response of Object.values(responses)) {
        const content = response.content as Record<string, { schema?: Json }> | undefined;
        const schema = content?.["application/json"]?.schema;
        if (!schema?.[PLAIN_TEXT_MARKER]) continue;
        const { [PLAIN_TEXT_MARKER]: _marker, ...plain } = schema;
        response.content = { "text/plain": { schema: plain } };
      }
    }
  }
  return document;
}

/** The committed form of the document (shared with scheduling). */
export { renderOpenApi } from "@app/server/openapi";
