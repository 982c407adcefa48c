// The shortener fuzz suite: what the document admits is not refused (fuzz-suite.ts has the setup
// and the rules the document cannot state).
import { fuzzShortener } from "./fuzz-suite.ts";

fuzzShortener("admitted");
