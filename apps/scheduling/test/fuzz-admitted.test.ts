// The scheduling fuzz suite: what the document admits is not refused (fuzz-suite.ts has the setup
// and the rules the document cannot state).
import { fuzzScheduling } from "./fuzz-suite.ts";

fuzzScheduling("admitted");
