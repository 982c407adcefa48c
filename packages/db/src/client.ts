import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export interface PrismaOptions {
  /** Connections in this process's pool. */
  poolMax?: number;
}

/** A Prisma client over node-postgres (the Rust-free client needs a driver adapter). */
export function createPrisma(connectionString: string, { poolMax = 10 }: PrismaOptions = {}): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: poolMax }) });
}
