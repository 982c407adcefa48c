// The scheduling fuzz suite: no 5xx, and a 4xx changes nothing (fuzz-suite.ts has the setup).
import { fuzzScheduling } from "./fuzz-suite.ts";

fuzzScheduling("refused");
