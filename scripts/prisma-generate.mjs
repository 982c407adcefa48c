// Runs `prisma generate` without network access. The CLI insists on resolving its
// native schema engine even though generating the (Rust-free) client never uses it;
// pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file skips the download.
import { spawnSync } from "node:child_process";

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
const result = spawnSync("prisma", ["generate", ...process.argv.slice(2)], {
  stdio: "inherit",
  env,
  shell: false,
});
if (result.error) {
  console.error(`prisma generate could not start: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
