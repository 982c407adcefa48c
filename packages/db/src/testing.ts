// Test-only helpers: every test file gets its own database, cloned from a template
// that the vitest global setup migrated once, so files run in parallel on one server.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** A maintenance connection URL of the test PostgreSQL server. */
    databaseServerUrl: string;
    /** A migrated database to clone. */
    templateDatabase: string;
    /** Redis for the tests that need one; empty when none was configured. */
    redisUrl: string;
  }
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database for one test file: migrated, or `empty` (no schema at all). */
export async function createTestDatabase({ empty = false } = {}): Promise<TestDatabase> {
  const serverUrl = inject("databaseServerUrl");
  const template = empty ? "template0" : inject("templateDatabase");
  const name = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  // Two clones of one template at the same instant can collide ("source database is
  // being accessed by other users"); a short retry rides that out.
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      break;
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  return {
    url: withDatabase(serverUrl, name),
    drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
