// docs/configuration.md, written from the services' configuration schemas: every variable
// either service reads, with its default, the values it accepts (from the schema's checks and
// their messages) and an example. `pnpm docs:configuration` writes it, `--check` compares
// (test/configuration-doc.test.ts fails when they differ).
//   node dist/configuration-doc.js [--check]
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SchedulingConfigSchema } from "@app/scheduling/config";
import { sharedEnv } from "@app/server/config";
import { ShortenerConfigSchema } from "@app/shortener/config";
import { z } from "zod";

const root = fileURLToPath(new URL("..", import.meta.url));
export const CONFIGURATION_DOC = path.join(root, "docs/configuration.md");

/** Examples for the variables without a default, and where another value shows the use better. */
const EXAMPLES: Record<string, string> = {
  DATABASE_URL: "postgresql://app:secret@db.example.com:5432/app",
  DATABASE_DIRECT_URL: "postgresql://app:secret@db-primary.example.com:5432/app",
  DATABASE_REPLICA_URL: "postgresql://app:secret@db-replica.example.com:5432/app",
  HOST: "0.0.0.0",
  TRUST_PROXY: "1",
  REDIS_URL: "redis://redis.example.com:6379",
  SHORT_BASE_URL: "https://sho.rt",
  SHORTENER_METRICS_PORT: "9464",
  SCHEDULING_METRICS_PORT: "9465",
  VISIT_RETENTION_DAYS: "400",
  VISIT_IP: "anonymized",
  HOSTED_MODE: "on",
  TENANT_SECRET: "$(openssl rand -base64 32)",
  RATE_LIMIT_REDIS_PREFIX: "acme-scheduling:",
};

type Field = z.ZodType & { _zod: { def: Record<string, unknown> } };

/** The schema a variable's text is checked by: inside its default, optional and transform. */
function inner(field: Field): Field {
  const def = field._zod.def;
  if (def.innerType) return inner(def.innerType as Field);
  if (def.type === "pipe") return inner(def.in as Field);
  return field;
}

/** The messages of a schema's checks ("must be …"), as the start prints them for a bad value. */
function messages(field: Field): string[] {
  const checks = (field._zod.def.checks ?? []) as { _zod: { def: { error?: () => unknown } } }[];
  return checks
    .map((check) => check._zod.def.error?.())
    .filter((message): message is string => typeof message === "string");
}

/** What a variable accepts, in words. */
export function accepted(schemaOf: z.ZodType): string {
  const field = schemaOf as unknown as Field;
  const schema = z.toJSONSchema(field, { io: "input", unrepresentable: "any" }) as {
    type?: string;
    enum?: unknown[];
    minimum?: number;
    exclusiveMinimum?: number;
    maximum?: number;
    minLength?: number;
  };
  if (schema.enum) return `one of ${schema.enum.map((value) => `\`${String(value)}\``).join(", ")}`;
  if (schema.type === "integer") {
    const least =
      schema.minimum ?? (schema.exclusiveMinimum === undefined ? undefined : schema.exclusiveMinimum + 1);
    const most = schema.maximum === Number.MAX_SAFE_INTEGER ? undefined : schema.maximum;
    if (least !== undefined && most !== undefined) return `a whole number from ${least} to ${most}`;
    if (least !== undefined) return `a whole number, at least ${least}`;
    return "a whole number";
  }
  const said = messages(inner(field)).find((message) => message.startsWith("must "));
  if (said) return said.replace(/^must (be |look like )?/, (_, be) => (be === "look like " ? "like " : ""));
  if (inner(field)._zod.def.format === "url") return "a URL";
  return schema.minLength ? "any text, not empty" : "any text";
}

function defaultOf(field: Field): string {
  const def = field._zod.def;
  if (def.type === "default") {
    const value = typeof def.defaultValue === "function" ? def.defaultValue() : def.defaultValue;
    return `\`${String(value)}\``;
  }
  if (def.innerType) return defaultOf(def.innerType as Field);
  return "–";
}

function row(name: string, field: Field): string {
  const example = EXAMPLES[name] ?? defaultOf(field).replaceAll("`", "");
  const cells = [
    `\`${name}\``,
    defaultOf(field),
    accepted(field),
    `\`${name}=${example}\``,
    field.description ?? "",
  ];
  return `| ${cells.map((cell) => cell.replaceAll("|", "\\|").replaceAll("\n", " ")).join(" | ")} |`;
}

function table(shape: Record<string, Field>, names: string[]): string[] {
  return [
    "| variable | default | accepts | example | what it does |",
    "|---|---|---|---|---|",
    ...names.map((name) => row(name, shape[name]!)),
  ];
}

export function renderConfiguration(): string {
  const shortener = (ShortenerConfigSchema.in as unknown as { shape: Record<string, Field> }).shape;
  const scheduling = (SchedulingConfigSchema as unknown as { shape: Record<string, Field> }).shape;
  const shared = Object.keys(sharedEnv);
  const own = (shape: Record<string, Field>) => Object.keys(shape).filter((name) => !shared.includes(name));
  return [
    "# Configuration",
    "",
    "<!-- Written by `pnpm docs:configuration` from the configuration schemas",
    "     (packages/server/src/config.ts, apps/*/src/config.ts); a test fails when it differs. -->",
    "",
    "Both services read their settings from the environment, once, at start; `.env` in the",
    "working directory is read too (a variable of the real environment wins over it), and",
    "[`.env.example`](../.env.example) lists every variable with its default. An empty variable",
    "means its default. A bad value stops the start with one line naming the variable and what",
    "it must be (`cannot start: Invalid shortener configuration: SHORTENER_PORT: must be a port",
    'number (received "abc")`); a URL that may hold a password is not echoed. A variable that looks',
    "like one of these but that no service reads (`SHORTENER_PROT`) gets one `warning: ignoring …`",
    "line.",
    "",
    "## Both services",
    "",
    ...table(shortener, shared),
    "",
    "## URL shortener",
    "",
    ...table(shortener, own(shortener)),
    "",
    "## Scheduling API",
    "",
    ...table(scheduling, own(scheduling)),
    "",
    "Hosted mode (`HOSTED_MODE`, `TENANT_*`) is described in [operations](operations.md#hosted-mode-experimental).",
    "",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = renderConfiguration();
  if (process.argv.includes("--check")) {
    if (readFileSync(CONFIGURATION_DOC, "utf8") !== text) {
      console.error(
        "docs/configuration.md differs from the configuration schemas: run pnpm docs:configuration",
      );
      process.exit(1);
    }
  } else {
    writeFileSync(CONFIGURATION_DOC, text);
    console.log("wrote docs/configuration.md");
  }
}
