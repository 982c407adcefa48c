// Regenerates packages/schemas/src/time-zones.ts: the tz database names that
// PostgreSQL lists (psql on DATABASE_URL, default the local server) and that Intl accepts on
// this Node and on Node 24 (run through `npx node@24`). Usage: node scripts/time-zones.mjs
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const accepted = (names) =>
  names.filter((name) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: name });
      return /^[A-Za-z]/.test(name);
    } catch {
      return false;
    }
  });

if (process.argv[2] === "--check") {
  // Child mode: print which of the names on stdin this Node accepts.
  process.stdout.write(JSON.stringify(accepted(JSON.parse(readFileSync(0, "utf8")))));
  process.exit(0);
}

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const fromPostgres = execFileSync("psql", [url, "-Atc", "select name from pg_timezone_names"], {
  encoding: "utf8",
})
  .trim()
  .split("\n")
  .filter((name) => !/^(posix|right)\//.test(name) && !["localtime", "Factory", "posixrules"].includes(name));
const candidates = [...new Set([...fromPostgres, ...Intl.supportedValuesOf("timeZone")])].sort();
const here = accepted(candidates);
const node24 = new Set(
  JSON.parse(
    execFileSync("npx", ["-y", "node@24", import.meta.filename, "--check"], {
      input: JSON.stringify(candidates),
      encoding: "utf8",
      stdio: ["pipe", "pipe", "ignore"],
    }),
  ),
);
const zones = here.filter((name) => node24.has(name));
const file = new URL("../packages/schemas/src/time-zones.ts", import.meta.url);
const header = readFileSync(file, "utf8").split("export const TIME_ZONES")[0];
writeFileSync(
  file,
  `${header}export const TIME_ZONES = [\n${zones.map((z) => `  "${z}",\n`).join("")}] as const;\n\nexport type TimeZoneName = (typeof TIME_ZONES)[number];\n`,
);
console.log(`${zones.length} zones written (${here.length - zones.length} accepted here only)`);
