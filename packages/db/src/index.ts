export { createPrisma, type PrismaOptions } from "./client.ts";
export { type Database, type DatabaseOptions, openDatabase, withPrisma } from "./database.ts";
export { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from "./embedded.ts";
export { isRecordNotFound, isUniqueViolation } from "./errors.ts";
export * from "./generated/prisma/client.ts";
export {
  defaultMigrationsDir,
  type MigrateResult,
  MigrationError,
  migrate,
  readMigrations,
} from "./migrate.ts";
