// docker compose cannot run here, so this test checks what it would use: the compose
// file's services and variables against .env.example and the services' config schemas.
import { existsSync, readFileSync } from "node:fs";
import { ShortenerConfigSchema } from "@app/shortener/config";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const root = new URL("../", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), "utf8");

interface Service {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(read("docker-compose.yml")) as { services: Record<string, Service> };

/** Variable names of .env.example (commented lines are documentation). */
const example = new Map(
  read(".env.example")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const),
);

describe("docker-compose.yml", () => {
  it("runs PostgreSQL, Redis and both services, each with a healthcheck", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["postgres", "redis", "scheduling", "shortener"]);
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.healthcheck?.test.length, name).toBeGreaterThan(0);
    }
    expect(existsSync(new URL("Dockerfile", root))).toBe(true);
    for (const app of ["shortener", "scheduling"]) {
      expect(compose.services[app]!.build).toBe(".");
      expect(compose.services[app]!.depends_on?.postgres?.condition).toBe("service_healthy");
    }
    expect(compose.services.scheduling!.depends_on?.redis?.condition).toBe("service_healthy");
  });

  it("only sets variables that .env.example documents, and listens on all interfaces", () => {
    for (const app of ["shortener", "scheduling"]) {
      const env = compose.services[app]!.environment ?? {};
      for (const key of Object.keys(env)) expect(example.has(key), `${app}: ${key}`).toBe(true);
      expect(env.HOST).toBe("0.0.0.0");
      expect(env.DATABASE_URL).toMatch(/^postgresql:\/\/postgres:postgres@postgres:5432\/app$/);
    }
    expect(compose.services.scheduling!.environment?.REDIS_URL).toBe("redis://redis:6379");
  });

  it("publishes each service on its configured port", () => {
    expect(compose.services.shortener!.environment?.SHORTENER_PORT).toBe("3000");
    expect(compose.services.scheduling!.environment?.SCHEDULING_PORT).toBe("3001");
  });
});

describe(".env.example", () => {
  it("lists every variable the shortener reads, with its default", () => {
    const defaults = ShortenerConfigSchema.in.shape;
    for (const key of Object.keys(defaults)) expect(example.has(key), key).toBe(true);
    expect(example.get("SHORTENER_PORT")).toBe("3000");
    expect(example.get("SHORTENER_API_PREFIX")).toBe("/api");
  });

  it("lists the scheduling API's variables, with their defaults", () => {
    for (const [key, value] of [
      ["SCHEDULING_PORT", "3001"],
      ["APIKEY_PREFIX", "cal_"],
      ["RATE_LIMIT_MAX", "30"],
      ["RATE_LIMIT_WINDOW_MS", "60000"],
      ["REDIS_URL", ""],
    ]) {
      expect(example.get(key!), key).toBe(value);
    }
  });
});
