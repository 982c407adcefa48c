// Expand/contract (docs/adr/0218): `pnpm migrations:check` refuses a migration that drops or
// renames what the previous release still reads (or drops a unique index it declares), unless it
// is a contract step; the repository's
// own migrations pass it, and deploy/previous-release names a commit this clone holds.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { checkMigrations, removals, schemaObjects } from "../scripts/migrations-check.ts";
import { git, previousRelease } from "../scripts/previous-release.ts";

const PREVIOUS_SCHEMA = `
enum Role {
  USER
  ADMIN
}

model Short {
  id        String   @id @db.Uuid
  userId    String   @map("user_id") @db.Uuid
  user      User     @relation(fields: [userId], references: [id])
  oldName   String   @map("old_name") @unique
  slug      String
  role      Role
  // a comment
  @@unique([userId, slug])
  @@unique([role, slug], map: "by_role")
  @@map("shorts")
  @@schema("shortener")
}

model User {
  id     String  @id
  shorts Short[]
  @@schema("shortener")
}
`;

describe("the migration check", () => {
  it("reads the tables and columns a Prisma schema maps, not its relation fields, and its unique indexes", () => {
    const { tables, columns, uniqueIndexes } = schemaObjects(PREVIOUS_SCHEMA);
    expect([...uniqueIndexes].sort()).toEqual([
      "shortener.by_role",
      "shortener.shorts_old_name_key",
      "shortener.shorts_user_id_slug_key",
    ]);
    expect([...tables].sort()).toEqual(["shortener.shorts", "shortener.user"]);
    expect([...columns].sort()).toEqual([
      "shortener.shorts.id",
      "shortener.shorts.old_name",
      "shortener.shorts.role",
      "shortener.shorts.slug",
      "shortener.shorts.user_id",
      "shortener.user.id",
    ]);
  });

  it("finds what a migration drops or renames, and nothing else", () => {
    expect(
      removals(`
        -- DROP TABLE "shortener"."commented";
        ALTER TABLE "shortener"."shorts" ADD COLUMN "new_name" TEXT;
        ALTER TABLE "shortener"."shorts" DROP CONSTRAINT "x", DROP COLUMN IF EXISTS "old_name", ALTER COLUMN "id" DROP DEFAULT;
        ALTER TABLE ONLY shortener.shorts RENAME COLUMN role TO kind;
        ALTER TABLE "shortener"."user" RENAME TO "users";
        DROP TABLE IF EXISTS "shortener"."gone", "shortener"."also_gone" CASCADE;
        DROP INDEX IF EXISTS "shortener"."some_index";
        CREATE UNIQUE INDEX "shortener_x" ON "shortener"."shorts"("slug");
      `),
    ).toEqual([
      { kind: "drops column", object: "shortener.shorts.old_name" },
      { kind: "renames column", object: "shortener.shorts.role" },
      { kind: "renames table", object: "shortener.user" },
      { kind: "drops table", object: "shortener.gone" },
      { kind: "drops table", object: "shortener.also_gone" },
      { kind: "drops index", object: "shortener.some_index" },
    ]);
  });

  it("refuses dropping a unique index the previous release declares (its ON CONFLICT may name it), not a plain one", () => {
    const drop = 'DROP INDEX "shortener"."shorts_old_name_key";';
    expect(checkMigrations(PREVIOUS_SCHEMA, [{ name: "2", sql: drop }])).toEqual([
      {
        migration: "2",
        removal: { kind: "drops index", object: "shortener.shorts_old_name_key" },
        refused: true,
      },
    ]);
    expect(
      checkMigrations(PREVIOUS_SCHEMA, [
        { name: "2", sql: `-- contract step: names are unique per domain\n${drop}` },
      ]),
    ).toMatchObject([{ refused: false }]);
    expect(
      checkMigrations(PREVIOUS_SCHEMA, [{ name: "3", sql: 'DROP INDEX "shortener"."shorts_slug_idx";' }]),
    ).toEqual([]);
  });

  it("refuses removing what the previous release reads, unless the migration is a contract step", () => {
    const drop = 'ALTER TABLE "shortener"."shorts" DROP COLUMN "old_name";';
    expect(checkMigrations(PREVIOUS_SCHEMA, [{ name: "2_drop", sql: drop }])).toEqual([
      {
        migration: "2_drop",
        removal: { kind: "drops column", object: "shortener.shorts.old_name" },
        refused: true,
      },
    ]);
    const marked = `-- contract step: nothing reads old_name since the release before\n${drop}`;
    expect(checkMigrations(PREVIOUS_SCHEMA, [{ name: "2_drop", sql: marked }])).toEqual([
      {
        migration: "2_drop",
        removal: { kind: "drops column", object: "shortener.shorts.old_name" },
        refused: false,
      },
    ]);
    // What the previous release does not read may go at once (an expand step's own leftovers).
    expect(
      checkMigrations(PREVIOUS_SCHEMA, [
        { name: "3", sql: 'ALTER TABLE "shortener"."shorts" DROP COLUMN "scratch";' },
      ]),
    ).toEqual([]);
  });

  it("passes the repository's migrations against deploy/previous-release, a commit this clone holds", () => {
    const commit = previousRelease();
    expect(git(["cat-file", "-t", commit])).toBe("commit");
    // The previous release is an ancestor of what is checked out: upgrades go forward.
    expect(() => git(["merge-base", "--is-ancestor", commit, "HEAD"])).not.toThrow();
    const output = execFileSync(process.execPath, ["--enable-source-maps", "dist/migrations-check.js"], {
      encoding: "utf8",
    });
    expect(output).toMatch(/0 refused/);
  });
});
