export { BoundedByteTail } from "./bounded-byte-tail.js";
export { type ProcStat, parseProcStat, readProcStat, readProcTable } from "./proc-stat.js";
export { shellQuote } from "./shell-quote.js";
