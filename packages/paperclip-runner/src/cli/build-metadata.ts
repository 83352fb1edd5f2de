import { VERSION } from "../version.js";

export const BUILD_METADATA_SCHEMA = "paperclip-runner/runnerd-build-metadata/v1";

/**
 * The version of the command-line contract (argv, exit codes, diagnostics
 * file). A launcher refuses a binary whose contract it does not know.
 */
export const BINARY_CONTRACT_VERSION = 1;

/** The Paperclip runner protocol versions this build speaks. */
export const PRP_RANGE = { name: "paperclip.runner", minimumVersion: 1, maximumVersion: 1 } as const;

/**
 * `local`: controller commands on stdin, events and receipts on stdout, as JSON lines.
 * `durable`: the encrypted, acknowledged, resumable PRP WebSocket to the Paperclip server
 * (`--connect-url`, or the listen flags).
 */
export const TRANSPORT_MODES = ["local", "durable"] as const;

export interface BuildMetadata {
  readonly schema: typeof BUILD_METADATA_SCHEMA;
  readonly binaryName: "paperclip-runnerd";
  readonly packageName: "@paperclipai/paperclip-runner";
  readonly packageVersion: string;
  readonly binaryContractVersion: number;
  readonly prp: typeof PRP_RANGE;
  readonly transportModes: readonly string[];
}

/** What `paperclip-runnerd --build-metadata` prints, as one JSON line. */
export function buildMetadata(): BuildMetadata {
  return {
    schema: BUILD_METADATA_SCHEMA,
    binaryName: "paperclip-runnerd",
    packageName: "@paperclipai/paperclip-runner",
    packageVersion: VERSION,
    binaryContractVersion: BINARY_CONTRACT_VERSION,
    prp: PRP_RANGE,
    transportModes: TRANSPORT_MODES,
  };
}
