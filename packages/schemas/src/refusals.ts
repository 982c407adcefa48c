// Rules a server holds that its OpenAPI document cannot state as a schema (one field bounded by
// another, a row that must exist, a rule over several parameters), declared in the document
// itself in one fixed form (docs/adr/0214): an operation's description, or the document's
// `info.description` for a rule every operation holds, ends with
//
//   Refused beyond the schema:
//   - 400 "validUntil must be later than validFrom": a short's validity window starts before it ends
//
// A reader, and the project's fuzz suite, can tell a declared refusal from a mismatch between
// the document and the server: the answer's status, and a text its message contains (`…`
// stands for any text).

/** One declared refusal: the status, a text the error message holds, and the rule in words. */
export interface DeclaredRefusal {
  status: number;
  /** Text the answer's message contains; `…` stands for any text. */
  answer: string;
  rule: string;
}

const HEADING = "Refused beyond the schema:";
const LINE = /^- (\d{3}) "(.*)": (.+)$/;

/** `description` followed by the fixed form of `refusals` (`description` alone when there are none). */
export function withRefusals(description: string, refusals: readonly DeclaredRefusal[]): string {
  if (refusals.length === 0) return description;
  for (const refusal of refusals) {
    if (refusal.answer.includes("\n") || refusal.rule.includes("\n")) {
      throw new Error(`a declared refusal fits on one line: ${refusal.answer}`);
    }
  }
  const lines = refusals.map(({ status, answer, rule }) => `- ${status} "${answer}": ${rule}`);
  return [description, "", HEADING, ...lines].join("\n").trimStart();
}

/** The refusals a description declares in the fixed form (none when it has no such section). */
export function refusalsOf(description: string | undefined): DeclaredRefusal[] {
  if (!description) return [];
  const start = description.split("\n").indexOf(HEADING);
  if (start === -1) return [];
  const refusals: DeclaredRefusal[] = [];
  for (const line of description.split("\n").slice(start + 1)) {
    const match = LINE.exec(line);
    if (!match) break;
    refusals.push({ status: Number(match[1]), answer: match[2]!, rule: match[3]! });
  }
  return refusals;
}

/** Whether an answer is the refusal declared: its status, and a message holding the text. */
export function isDeclaredRefusal(
  refusal: DeclaredRefusal,
  answer: { statusCode: number; body: string },
): boolean {
  if (answer.statusCode !== refusal.status) return false;
  const pattern = new RegExp(
    refusal.answer
      .split("…")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*"),
    "s",
  );
  return messagesOf(answer.body).some((message) => pattern.test(message));
}

/** The strings of a JSON answer (every error shape keeps its message in one), or the text itself. */
function messagesOf(body: string): string[] {
  try {
    const strings: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === "string") strings.push(value);
      else if (value && typeof value === "object") Object.values(value).forEach(walk);
    };
    walk(JSON.parse(body));
    return strings;
  } catch {
    return [body];
  }
}
