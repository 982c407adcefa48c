// The shortener fuzz suite: no 5xx, and a 4xx changes nothing (fuzz-suite.ts has the setup).
import { fuzzShortener } from "./fuzz-suite.ts";

fuzzShortener("refused");
