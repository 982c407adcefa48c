// One configuration loader for both services (@app/server/config), held against .env.example:
// every variable either service reads is documented there with its default, and every variable
// documented there is read by a service (or by the test setup, in its own section).
import { readFileSync } from "node:fs";
import { loadConfig as loadSchedulingConfig, SCHEDULING_VARIABLES } from "@app/scheduling/config";
import {
  ConfigError,
  fastifyTrustProxy,
  trustProxyEnv,
  unknownVariables,
  unknownVariablesWarning,
} from "@app/server/config";
import { loadConfig as loadShortenerConfig, SHORTENER_VARIABLES } from "@app/shortener/config";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";

const exampleText = readFileSync(new URL("../.env.example", import.meta.url), "utf8");
/** Variable → value of .env.example, and which section ("── name ──") each is in. */
const example = new Map<string, { value: string; section: string }>();
let section = "";
for (const line of exampleText.split("\n")) {
  const heading = /^# ── (.+) ──$/.exec(line);
  if (heading) section = heading[1]!;
  const variable = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
  if (variable) example.set(variable[1]!, { value: variable[2]!, section });
}

const services = [
  { name: "shortener", variables: SHORTENER_VARIABLES, load: loadShortenerConfig },
  { name: "scheduling", variables: SCHEDULING_VARIABLES, load: loadSchedulingConfig },
] as const;

describe(".env.example", () => {
  it.each(services)(
    "lists every variable the $name reads, with the default it applies",
    ({ variables, load }) => {
      const defaults = load({}) as Record<string, unknown>;
      for (const name of variables) {
        expect(example.has(name), `${name} is missing from .env.example`).toBe(true);
        const documented = example.get(name)!.value;
        const applied = defaults[name];
        // Unset by default (optional) is documented as empty; a derived default (SHORT_BASE_URL) too.
        if (documented === "") continue;
        const shown = Array.isArray(applied) ? applied.join(",") : String(applied);
        expect(shown, `${name}: .env.example says ${documented}`).toBe(documented);
      }
    },
  );

  it("documents no variable that no service reads, except the tests' own section", () => {
    const read = new Set<string>([...SHORTENER_VARIABLES, ...SCHEDULING_VARIABLES]);
    const unread = [...example].filter(
      ([name, { section }]) => !read.has(name) && !section.startsWith("tests"),
    );
    expect(unread.map(([name]) => name)).toEqual([]);
    expect([...example].filter(([, { section }]) => section.startsWith("tests")).length).toBeGreaterThan(0);
  });
});

describe("parseEnvironment", () => {
  it("names the variable and echoes the text it received, not what coercion made of it", () => {
    expect(() => loadShortenerConfig({ SHORTENER_PORT: "abc" })).toThrow(ConfigError);
    expect(() => loadShortenerConfig({ SHORTENER_PORT: "abc" })).toThrow(
      'Invalid shortener configuration: SHORTENER_PORT: must be a port number (received "abc")',
    );
    const both = () => loadSchedulingConfig({ SCHEDULING_PORT: "70000", LOG_LEVEL: "loud" });
    expect(both).toThrow(/SCHEDULING_PORT: must be an integer from 0 to 65535 \(received "70000"\)/);
    expect(both).toThrow(/LOG_LEVEL: must be one of fatal, .* \(received "loud"\)/);
  });

  it("does not echo a value that may hold a password", () => {
    const attempt = () => loadShortenerConfig({ DATABASE_URL: "mysql://user:hunter2@db/app" });
    expect(attempt).toThrow(/DATABASE_URL: must be a postgresql:\/\/ URL/);
    expect(attempt).not.toThrow(/hunter2/);
  });

  it("treats an empty variable as unset", () => {
    expect(loadShortenerConfig({ BODY_LIMIT: "" }).BODY_LIMIT).toBe(16_384);
    expect(loadSchedulingConfig({ RATE_LIMIT_MAX: "" }).RATE_LIMIT_MAX).toBe(30);
  });
});

describe("the database URLs (docs/adr/0175, 0178)", () => {
  const loaders = [loadShortenerConfig, loadSchedulingConfig] as const;

  it.each(loaders)("reads the direct URL, the replica and its lag bound", (load) => {
    const config = load({
      DATABASE_URL: "postgresql://app@pgbouncer:6432/app",
      DATABASE_DIRECT_URL: "postgresql://app@db:5432/app",
      DATABASE_REPLICA_URL: "postgresql://app@replica:5432/app",
      REPLICA_MAX_LAG_MS: "250",
    }) as Record<string, unknown>;
    expect(config).toMatchObject({
      DATABASE_DIRECT_URL: "postgresql://app@db:5432/app",
      DATABASE_REPLICA_URL: "postgresql://app@replica:5432/app",
      REPLICA_MAX_LAG_MS: 250,
    });
  });

  it.each(loaders)("refuses a direct URL or a replica without DATABASE_URL, and a bad lag bound", (load) => {
    expect(() => load({ DATABASE_DIRECT_URL: "postgresql://app@db/app" })).toThrow(
      /DATABASE_DIRECT_URL: needs DATABASE_URL/,
    );
    expect(() => load({ DATABASE_REPLICA_URL: "postgresql://app@replica/app" })).toThrow(
      /DATABASE_REPLICA_URL: needs DATABASE_URL/,
    );
    const secret = () =>
      load({ DATABASE_URL: "postgresql://a@b/c", DATABASE_REPLICA_URL: "mysql://u:hunter2@r/c" });
    expect(secret).toThrow(/DATABASE_REPLICA_URL: must be a postgresql:\/\/ URL/);
    expect(secret).not.toThrow(/hunter2/);
    expect(() => load({ REPLICA_MAX_LAG_MS: "5" })).toThrow(/REPLICA_MAX_LAG_MS: must be a whole number/);
  });
});

describe("TRUST_PROXY: one rule for both services", () => {
  const parse = (value: string) => trustProxyEnv.safeParse(value);
  it.each([
    ["true", true],
    ["false", false],
    ["1", 1],
    ["2", 2],
    ["10.0.0.1", ["10.0.0.1"]],
    ["10.0.0.1, 192.168.0.0/16,::1", ["10.0.0.1", "192.168.0.0/16", "::1"]],
  ] as const)("%s is %j", (value, expected) => {
    expect(parse(value)).toEqual({ success: true, data: expected });
    expect((loadShortenerConfig({ TRUST_PROXY: value }) as { TRUST_PROXY: unknown }).TRUST_PROXY).toEqual(
      expected,
    );
    expect(loadSchedulingConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each(["yes", "no", "TRUE", "a;b", "proxy.example.com", "-1"])("%s stops the start", (value) => {
    expect(parse(value).success).toBe(false);
    expect(() => loadShortenerConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    expect(() => loadSchedulingConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });

  it("a hop count trusts that many proxies: 1 takes the last X-Forwarded-For hop, true the first", async () => {
    const clientOf = async (value: string) => {
      const app = Fastify({ trustProxy: fastifyTrustProxy(trustProxyEnv.parse(value)) });
      app.get("/", async (request) => ({ ip: request.ip }));
      const response = await app.inject({
        url: "/",
        headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.9" },
      });
      await app.close();
      return response.json().ip;
    };
    expect(await clientOf("1")).toBe("203.0.113.9");
    expect(await clientOf("2")).toBe("198.51.100.1");
    expect(await clientOf("true")).toBe("198.51.100.1");
    expect(await clientOf("false")).toBe("127.0.0.1");
  });
});

describe("a variable that looks like ours but that no service reads", () => {
  const known = [...SHORTENER_VARIABLES, ...SCHEDULING_VARIABLES];

  it("is named once, in one warning line", () => {
    const env = {
      SHORTENER_PROT: "3000",
      RATE_LIMIT_MAXX: "5",
      SHORTENER_PORT: "3000",
      PATH: "/bin",
      HOME: "/root",
    };
    expect(unknownVariables(env, known)).toEqual(["RATE_LIMIT_MAXX", "SHORTENER_PROT"]);
    const warning = unknownVariablesWarning(env, known)!;
    expect(warning.split("\n")).toHaveLength(1);
    expect(warning).toMatch(
      /^warning: ignoring RATE_LIMIT_MAXX, SHORTENER_PROT: no service reads these variables/,
    );
  });

  it("leaves other programs' variables and the tests' own alone", () => {
    const env = {
      NODE_ENV: "test",
      TEST_DATABASE_URL: "x",
      FUZZ_RUNS: "5",
      HOSTNAME: "h",
      npm_config_x: "1",
    };
    expect(unknownVariablesWarning(env, known)).toBeUndefined();
  });

  it("of the other service is not a typo for a service that runs alone", () => {
    expect(unknownVariables({ SCHEDULING_PORT: "3001", TENANT_SECRET: "x" }, SHORTENER_VARIABLES)).toEqual(
      [],
    );
  });
});
