export { ChangeNotifiedCache, type ChangeNotifiedCacheOptions } from "./change-notified-cache.ts";
export {
  CONNECT_TIMEOUT_MS,
  connectionSettings,
  connectionUrlOf,
  createPrisma,
  databaseAddress,
  dedicatedConnection,
  directUrlOf,
  inTransaction,
  isPooled,
  type PoolStats,
  PREPARED_STATEMENTS_MAX,
  type PrismaOptions,
  poolOf,
  poolStats,
  queryPrepared,
  queryRows,
  STATEMENT_TIMEOUT_MS,
  separatePool,
  statementNames,
  waitMsOf,
} from "./client.ts";
export { type Database, type DatabaseOptions, openDatabase, withPrisma } from "./database.ts";
export {
  type EmbeddedDatabase,
  embeddedClusterFolder,
  freePort,
  startEmbeddedPostgres,
} from "./embedded.ts";
export {
  isDatabaseUnavailable,
  isForeignKeyViolation,
  isLockTimeout,
  isRecordNotFound,
  isTransactionConflict,
  isUniqueViolation,
} from "./errors.ts";
export * from "./generated/prisma/client.ts";
export { UUIDV7_BATCH_MAX, uuidv7, uuidv7Floor, uuidv7s } from "./ids.ts";
export {
  type ContractSteps,
  DatabaseUnreachable,
  defaultMigrationsDir,
  isContractStep,
  type MigrateResult,
  MigrationError,
  migrate,
  readMigrations,
} from "./migrate.ts";
export { NotificationListener, type NotificationListenerOptions } from "./notification-listener.ts";
export { parseLsn, ReplicaReads, type ReplicaReadsOptions } from "./replica-reads.ts";
