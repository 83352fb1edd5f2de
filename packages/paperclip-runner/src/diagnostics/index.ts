export {
  boundedRedactedDiagnostic,
  DIAGNOSTIC_BYTE_LIMIT,
  DIAGNOSTIC_TRUNCATION_SUFFIX,
} from "./bounded-redacted-diagnostic.js";
export { describeFailure, type FailureKind } from "./describe-failure.js";
export { DIAGNOSTICS_PATH_ERRORS } from "./diagnostics-path-errors.js";
export { DIAGNOSTIC_FILE_NAME, persistRunnerDiagnostic } from "./persist-runner-diagnostic.js";
export { verifyPrivateDiagnosticsDirectory } from "./verify-private-diagnostics-directory.js";
