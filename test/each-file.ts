// Runs before each test file. Test files share their worker's module cache (isolate: false in
// vitest.config.ts, docs/adr/0207), so what a file's checks collect starts empty here.
import { conformance } from "@app/testing/conformance";
import { secretScan } from "@app/testing/database";

secretScan.reset();
conformance.reset();
