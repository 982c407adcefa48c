// Connected calendars as a plugin of the app (docs/adr/0247, 0254, 0255): the busy-time settings the
// slot routes read, and this instance's calendar sync. Registered after the hosting plugin. The
// process checks that CREDENTIALS_KEY opens every stored login before it listens (server.ts,
// credentialKeyProblem).
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { SchedulingConfig } from "../config.ts";
import { type CredentialKeys, credentialKeys } from "./logins.ts";

export interface Calendars {
  /** CALENDAR_STALE_MS: how old a calendar's copy may be before its owner is busy. */
  staleMs: number;
  /** The keys that open connected accounts' logins; undefined without CREDENTIALS_KEY. */
  keys: CredentialKeys | undefined;
}

async function calendars(app: FastifyInstance, { config }: { config: SchedulingConfig }) {
  const keys = credentialKeys(config);
  const state: Calendars = { staleMs: config.CALENDAR_STALE_MS, keys };
  app.decorate("calendars", state);
}

export default fp(calendars, { name: "calendars", dependencies: ["hosting"] });
