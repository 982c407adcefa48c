// `pnpm bench --only import`: `pnpm -s shortener import` of 100,000 links, run as users run it
// (the compiled CLI, its own process, to its exit): a generic CSV of 100,000 rows with names,
// titles, tags, created dates and visit totals (issue 39: ≤ 60 s), then the same file again
// (every link found, nothing created).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

interface ImportOptions {
  root: string;
  databaseUrl: string;
  links?: number;
}

export async function importRows({ root, databaseUrl, links = 100_000 }: ImportOptions): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "bench-import-"));
  try {
    const file = path.join(dir, "links.csv");
    const run = randomBytes(3).toString("hex");
    const rows = ["url,name,title,tags,created,visits"];
    for (let i = 0; i < links; i++) {
      const created = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
      rows.push(
        `https://example.com/articles/${i}?utm_source=import,b${run}-${i},"Article ${i}, imported",news|bench,${created},${i % 500}`,
      );
    }
    await writeFile(file, `${rows.join("\n")}\n`);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl };
    const cli = (...args: string[]) =>
      execFileSync(
        process.execPath,
        ["--enable-source-maps", path.join(root, "apps/shortener/dist/cli.js"), ...args],
        {
          cwd: root,
          env,
          encoding: "utf8",
        },
      ).trim();
    const email = `import-${run}@bench.example`;
    cli("user:create", "--email", email);
    const timed = (label: string) => {
      const started = performance.now();
      const summary = cli("import", file, "--from", "csv", "--user", email);
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `${label.padEnd(44)} ${seconds.toFixed(1).padStart(6)} s  ${(links / seconds).toFixed(0).padStart(7)} links/s  (${summary})`,
      );
    };
    console.log(
      `\nimport: ${links.toLocaleString("en")} links of a generic CSV, node apps/shortener/dist/cli.js import (target ≤ 60 s)`,
    );
    timed("first run (every link created)");
    timed("same file again (every link skipped)");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
