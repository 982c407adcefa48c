import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    expect(loadConfig({})).toEqual({
      SCHEDULING_PORT: 3001,
      HOST: "127.0.0.1",
      DATA_DIR: ".data",
      APIKEY_PREFIX: "cal_",
      RATE_LIMIT_MAX: 30,
      RATE_LIMIT_WINDOW_MS: 60_000,
      RATE_LIMIT_REDIS_PREFIX: "scheduling-rate-limit:",
      LOG_LEVEL: "info",
      TRUST_PROXY: false,
      REQUEST_TIMEOUT_MS: 10_000,
      KEEP_ALIVE_TIMEOUT_MS: 5_000,
      STOP_WAIT_MS: 5_000,
      REDIS_TIMEOUT_MS: 25,
      MAX_CONNECTIONS: 10_000,
      REPLICA_MAX_LAG_MS: 1_000,
      DATABASE_WAIT_MS: 15_000,
      HOSTED_MODE: "off",
      TENANT_POOL_MAX: 5,
      TENANT_CONNECTIONS_MAX: 100,
      MAIL_MAX_ATTEMPTS: 8,
      MAIL_RETRY_BASE_MS: 30_000,
      MAIL_POLL_MS: 10_000,
      MAIL_SEND_TIMEOUT_MS: 60_000,
      MAIL_GIVE_WAY_MS: 3_000,
      CALENDAR_SYNC_INTERVAL_MS: 60_000,
      CALENDAR_STALE_MS: 300_000,
      CALENDAR_TIMEOUT_MS: 10_000,
      CALENDAR_HORIZON_DAYS: 400,
      CALENDAR_WRITE_MAX_ATTEMPTS: 8,
      CALENDAR_WRITE_RETRY_BASE_MS: 30_000,
    });
  });

  it("reads and converts the variables, treating empty ones as unset", () => {
    const config = loadConfig({
      SCHEDULING_PORT: "8080",
      DATABASE_URL: "postgresql://u@db:5432/app",
      REDIS_URL: "redis://cache:6379",
      RATE_LIMIT_MAX: "5",
      TRUST_PROXY: "true",
      APIKEY_PREFIX: "cal_live_",
      LOG_LEVEL: "",
      UNRELATED: "ignored",
    });
    expect(config).toMatchObject({
      SCHEDULING_PORT: 8080,
      DATABASE_URL: "postgresql://u@db:5432/app",
      REDIS_URL: "redis://cache:6379",
      RATE_LIMIT_MAX: 5,
      TRUST_PROXY: true,
      APIKEY_PREFIX: "cal_live_",
      LOG_LEVEL: "info",
    });
    expect(config).not.toHaveProperty("UNRELATED");
  });

  it("reads TRUST_PROXY as Fastify does: a flag, a hop count or proxy addresses", () => {
    expect(loadConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.1, 192.168.0.0/16" }).TRUST_PROXY).toEqual([
      "10.0.0.1",
      "192.168.0.0/16",
    ]);
  });

  it("refuses bad values, naming each variable", () => {
    const load = () =>
      loadConfig({
        SCHEDULING_PORT: "http",
        RATE_LIMIT_MAX: "0",
        REDIS_URL: "localhost:6379",
        TRUST_PROXY: "a;b",
      });
    expect(load).toThrow(ConfigError);
    for (const name of ["SCHEDULING_PORT", "RATE_LIMIT_MAX", "REDIS_URL", "TRUST_PROXY"]) {
      expect(load).toThrow(new RegExp(`${name}: `));
    }
  });

  describe("booking e-mails", () => {
    it("takes an smtp:// or smtps:// URL with credentials, and MAIL_FROM with it", () => {
      const config = loadConfig({
        SMTP_URL: "smtps://mailer:p%40ss@mail.example.com:465",
        MAIL_FROM: "Bookings <bookings@example.com>",
        MAIL_MAX_ATTEMPTS: "3",
      });
      expect(config).toMatchObject({
        SMTP_URL: "smtps://mailer:p%40ss@mail.example.com:465",
        MAIL_FROM: "Bookings <bookings@example.com>",
        MAIL_MAX_ATTEMPTS: 3,
      });
      expect(loadConfig({ SMTP_URL: "smtp://127.0.0.1:2525", MAIL_FROM: "a@b.example" }).SMTP_URL).toBe(
        "smtp://127.0.0.1:2525",
      );
    });

    it("refuses a bad SMTP_URL without echoing it (its password), and SMTP_URL without MAIL_FROM", () => {
      const bad = () =>
        loadConfig({ SMTP_URL: "http://mailer:hunter2-secret@mail.example.com", MAIL_FROM: "a@b.example" });
      expect(bad).toThrow(ConfigError);
      expect(bad).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
      expect(bad).not.toThrow(/hunter2/);
      expect(() => loadConfig({ SMTP_URL: "smtp://mail.example.com" })).toThrow(
        /MAIL_FROM: required when SMTP_URL is set/,
      );
      expect(() => loadConfig({ MAIL_FROM: "not an address" })).toThrow(/MAIL_FROM: must be an address/);
      expect(() => loadConfig({ MAIL_MAX_ATTEMPTS: "0" })).toThrow(/MAIL_MAX_ATTEMPTS/);
    });
  });

  describe("hosted mode", () => {
    const hex = "0123456789abcdef".repeat(4);
    const base64 = Buffer.alloc(32, 7).toString("base64");

    it("takes TENANT_SECRET as 32 bytes in hex, base64 or base64url", () => {
      for (const secret of [
        hex,
        base64,
        base64.replace(/=$/, ""),
        Buffer.alloc(32, 250).toString("base64url"),
      ]) {
        expect(loadConfig({ HOSTED_MODE: "on", TENANT_SECRET: secret }).TENANT_SECRET, secret).toBe(secret);
      }
    });

    it("refuses on or required without TENANT_SECRET, and a secret that is not 32 bytes", () => {
      for (const mode of ["on", "required"]) {
        expect(() => loadConfig({ HOSTED_MODE: mode })).toThrow(
          new RegExp(`TENANT_SECRET: required when HOSTED_MODE is ${mode}`),
        );
      }
      for (const secret of ["short", hex.slice(2), Buffer.alloc(31).toString("base64"), `${hex}00`]) {
        expect(() => loadConfig({ TENANT_SECRET: secret }), secret).toThrow(
          /TENANT_SECRET: must be 32 random bytes/,
        );
      }
      expect(() => loadConfig({ HOSTED_MODE: "yes" })).toThrow(/HOSTED_MODE/);
      expect(() => loadConfig({ TENANT_POOL_MAX: "10", TENANT_CONNECTIONS_MAX: "5" })).toThrow(
        /TENANT_CONNECTIONS_MAX: must be at least TENANT_POOL_MAX/,
      );
    });
  });
});
