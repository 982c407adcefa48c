import type { PrismaClient } from "@app/db";
import type { Registry } from "@app/server/metrics";
import type { Redis } from "ioredis";
import type { Calendars } from "./calendars/calendars.ts";
import type { Hosting } from "./hosting/hosting.ts";
import type { MailSender } from "./mail/sender.ts";

/** Who is calling, set by the apiKey auth hook on every /api/v1 request. */
export interface AuthContext {
  userId: number;
  /** `User.role === "ADMIN"`: sees everything and may act for another user with `userId`. */
  isAdmin: boolean;
  /** The API key's id; null on the calendar feed, which a feed token opens (docs/adr/0229). */
  apiKeyId: string | null;
}

declare module "fastify" {
  interface FastifyInstance {
    prisma: PrismaClient;
    /** The rate-limit store when REDIS_URL (or a caller's client) is set. */
    redis: Redis | null;
    /** Prometheus metrics, served on SCHEDULING_METRICS_PORT when it is set. */
    metrics: Registry;
    /** Hosted mode's tenant routing; null when HOSTED_MODE is off. */
    hosting: Hosting | null;
    /** This instance's booking e-mail sender; null without SMTP_URL (no e-mail is written). */
    mail: MailSender | null;
    /** Connected calendars: their busy-time settings and this instance's sync. */
    calendars: Calendars;
  }
  interface FastifyRequest {
    auth: AuthContext;
    /**
     * The database this request reads and writes, set with `auth`: `app.prisma`, or in hosted
     * mode the database of the tenant whose license key (`key`) it carries.
     */
    db: PrismaClient;
    /** Hosted mode: the tenant whose license key the request carries; null otherwise. */
    tenantId: string | null;
  }
  interface FastifyContextConfig {
    /** The route needs no apiKey. Every route without it requires one (deny by default). */
    public?: boolean;
    /** The route takes a calendar feed token (`?feedToken=`) instead of an apiKey (docs/adr/0229). */
    feedToken?: boolean;
  }
}
