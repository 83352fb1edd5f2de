// Preconditions and the toolchain lookup also have their own entries
// (`@paperclipai/test-support/preconditions`, `/paperclip-toolchain`): vitest's global setup and
// the plain-Node scripts that drive the e2e scenarios run outside a test, where the fixtures
// below cannot be used.

export { childForTest, childrenForFile, killGroupAfterTest, stopChild } from "./children.js";
export { type ServerToolchain, serverToolchain, toolchainCache } from "./paperclip-toolchain.js";
export { buildPlantedLoader } from "./planted-loader.js";
export { freePorts, portWasTaken, type RefusedPort, refusedPort, startOnFreePorts } from "./ports.js";
export {
  isAlive,
  openDescriptors,
  type ProcStat,
  parseProcStat,
  processesWith,
  readCommandLine,
  readProcStat,
  readProcTable,
} from "./proc.js";
export { refusedPortForTest } from "./refused-port-for-test.js";
export { type CertificateFiles, writeSelfSignedCertificate } from "./self-signed-certificate.js";
export { removeAfterTest, type TempDirOptions, tempDirForFile, tempDirForTest } from "./temp-dir.js";
