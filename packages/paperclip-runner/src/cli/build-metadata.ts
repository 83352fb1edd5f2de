import { PRP_PROTOCOL, PRP_VERSION_MAX, PRP_VERSION_MIN } from "../durable/transport/prp-versions.js";
import { VERSION } from "../version.js";

export const BUILD_METADATA_SCHEMA = "paperclip-runner/runnerd-build-metadata/v1";

/**
 * The runnerd binary contract (argv, exit codes, diagnostics, the durable transport) this build
 * keeps: upstream's `runnerdBinary` component. The server refuses a remote runner whose
 * metadata names another (`runner_remote_artifact_contract_incompatible`).
 */
export const BINARY_CONTRACT_VERSION = 2;

/** Upstream's `harnessDriver` and `nativeExecution` component versions, which the provider layer follows. */
export const HARNESS_DRIVER_VERSION = 1;
export const NATIVE_EXECUTION_VERSION = 1;

/** The Paperclip runner protocol versions the durable transport speaks. */
export const PRP_RANGE = {
  maximumVersion: PRP_VERSION_MAX,
  minimumVersion: PRP_VERSION_MIN,
  name: PRP_PROTOCOL,
} as const;

/**
 * How the server may reach this build, in upstream's words: dial a `ws://` loopback or a
 * `wss://` URL (`--connect-url`), or listen (`--listen-*`). The server checks the mode it needs
 * is listed before it stages a runner remotely. Local mode (stdin and stdout) is not a PRP
 * transport and, as upstream's, is not listed.
 */
export const PRP_TRANSPORT_MODES = ["dial_ws_loopback", "dial_wss", "listen_ws"] as const;

export interface BuildMetadata {
  readonly binaryContractVersion: number;
  readonly binaryName: "paperclip-runnerd";
  readonly harnessDriverVersion: number;
  readonly nativeExecutionVersion: number;
  readonly packageName: "@paperclipai/paperclip-runner";
  readonly packageVersion: string;
  readonly prp: typeof PRP_RANGE;
  readonly prpTransportModes: readonly string[];
  readonly schema: typeof BUILD_METADATA_SCHEMA;
}

/** What `paperclip-runnerd --build-metadata` prints, as one JSON line: upstream's fields, in its order. */
export function buildMetadata(): BuildMetadata {
  return {
    binaryContractVersion: BINARY_CONTRACT_VERSION,
    binaryName: "paperclip-runnerd",
    harnessDriverVersion: HARNESS_DRIVER_VERSION,
    nativeExecutionVersion: NATIVE_EXECUTION_VERSION,
    packageName: "@paperclipai/paperclip-runner",
    packageVersion: VERSION,
    prp: PRP_RANGE,
    prpTransportModes: PRP_TRANSPORT_MODES,
    schema: BUILD_METADATA_SCHEMA,
  };
}
