// The shortener's Fastify type declarations: what app.ts decorates the instance with, and what
// the bearer auth hook (auth.ts) sets on every API request.
import type { PrismaClient } from "@app/db";
import type { HotPath } from "@app/server/hot-path";
import type { Registry } from "@app/server/metrics";
import type { DomainsService } from "./domains/domains.service.ts";
import type { PasswordAttempts } from "./shorts/password-attempts.ts";
import type { PasswordHasher } from "./shorts/password-hash.ts";
import type { ShortsService } from "./shorts/shorts.service.ts";
import type { StatsService } from "./stats/stats.service.ts";
import type { OrphanVisits } from "./visits/orphan-visits.ts";
import type { VisitLog } from "./visits/visit-log.ts";
import type { VisitMaintenance } from "./visits/visit-maintenance.ts";

/** Who is calling, set by the bearer auth hook on every API request. */
export interface AuthenticatedUser {
  id: string;
  email: string;
  createdAt: Date;
}

declare module "fastify" {
  interface FastifyInstance {
    prisma: PrismaClient;
    shorts: ShortsService;
    /** Which domain a request's Host reaches, and which domains a user may use. */
    domains: DomainsService;
    stats: StatsService;
    visitLog: VisitLog;
    /** Requests for unknown names, domain roots and unknown hosts, counted per domain and hour. */
    orphanVisits: OrphanVisits;
    visitMaintenance: VisitMaintenance;
    /** Attempts at protected shorts' passwords, limited per short and client address. */
    passwordAttempts: PasswordAttempts;
    /** Hashes and checks protected shorts' passwords (scrypt at PRODUCTION_COST). */
    passwords: PasswordHasher;
    apiPrefix: string;
    /** Prometheus metrics, served on SHORTENER_METRICS_PORT when it is set. */
    metrics: Registry;
    /** The cached redirect, answered before Fastify (docs/adr/0240). */
    hotPath: HotPath;
    /** Shlink's API's OpenAPI document (GET /rest/docs; docs/adr/0276), as `swagger` is /docs's. */
    restSwagger: FastifyInstance["swagger"];
  }
}

declare module "fastify" {
  interface FastifyRequest {
    user: AuthenticatedUser;
  }
}
