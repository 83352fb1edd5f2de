// Preconditions have their own entry (`@paperclipai/test-support/preconditions`): vitest's
// global setup runs outside the test context, where the fixtures below cannot be imported.

export { childForTest, killGroupAfterTest, stopChild } from "./children.js";
export { type ServerToolchain, serverToolchain } from "./paperclip-toolchain.js";
export {
  isAlive,
  openDescriptors,
  type ProcStat,
  parseProcStat,
  readProcStat,
  readProcTable,
} from "./proc.js";
export { removeAfterTest, type TempDirOptions, tempDirForFile, tempDirForTest } from "./temp-dir.js";
