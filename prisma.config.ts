// Read by the prisma CLI only (generate/validate/format). The apps never read it:
// they take DATABASE_URL from their own parsed config.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  // A fallback, not env(): prisma's env() helper makes `generate` fail when the variable is unset.
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
});
