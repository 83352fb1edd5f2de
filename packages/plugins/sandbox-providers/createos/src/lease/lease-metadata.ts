import { CreateosError } from "@paperclipai/errors";
import { resourceId } from "../client/envelope.js";
import type { SandboxSpec } from "./sandbox-api.js";

/** The run's workspace; the marker that proves a resumed sandbox is ours lives below it. */
export const WORKSPACE_PATH = "/paperclip-workspace";
/** The host leaves `.paperclip-runtime` out of workspace exports, so the marker never reaches a repository. */
export const RUNTIME_DIR = `${WORKSPACE_PATH}/.paperclip-runtime`;
export const MARKER_PATH = `${RUNTIME_DIR}/.paperclip-createos-lease`;
/** What a lease is bound to; the host stores it and hands it back on resume, release and execute. */
export interface LeaseMetadata {
  readonly provider: "createos";
  readonly sandboxId: string;
  readonly companyId: string;
  readonly environmentId: string;
  readonly apiOrigin: string;
  readonly shape: string;
  readonly rootfs: string | null;
  readonly region: string | null;
  readonly marker: string;
  readonly workspacePath: string;
  /** Upstream's keys the host reads to place the run's workspace and shell in the sandbox. */
  readonly remoteCwd: string;
  readonly shellCommand: "bash";
}

export interface LeaseScope {
  readonly companyId: string;
  readonly environmentId: string;
  readonly apiOrigin: string;
}

export function buildLeaseMetadata(
  sandboxId: string,
  scope: LeaseScope,
  spec: SandboxSpec,
  marker: string,
): LeaseMetadata {
  return {
    provider: "createos",
    sandboxId,
    companyId: scope.companyId,
    environmentId: scope.environmentId,
    apiOrigin: scope.apiOrigin,
    shape: spec.shape,
    rootfs: spec.rootfs ?? null,
    region: spec.region ?? null,
    marker,
    workspacePath: WORKSPACE_PATH,
    remoteCwd: WORKSPACE_PATH,
    shellCommand: "bash",
  };
}

/** Which hook checks the binding; each has upstream's own text, shown by the host as is. */
export type LeaseUse = "lifecycle" | "execution" | "workspace";

const MISMATCH: Record<LeaseUse, string> = {
  lifecycle: "CreateOS lease does not belong to this environment.",
  execution: "CreateOS execution requires a lease from this environment.",
  workspace: "CreateOS workspace requires a lease from this environment.",
};

function mismatch(use: LeaseUse): CreateosError {
  return new CreateosError("ERR_CREATEOS_LEASE_MISMATCH", MISMATCH[use], { details: { use } });
}

/**
 * Checks the binding (company, environment, origin, id); the sandbox id comes back validated.
 * The marker is not judged here: only resume needs it, and a bad one there means "expired".
 */
export function verifyLeaseBinding(
  providerLeaseId: unknown,
  metadata: unknown,
  scope: LeaseScope,
  use: LeaseUse = "lifecycle",
): LeaseMetadata {
  if (typeof metadata !== "object" || metadata === null) throw mismatch(use);
  const m = metadata as Record<string, unknown>;
  if (
    m.provider !== "createos" ||
    m.companyId !== scope.companyId ||
    m.environmentId !== scope.environmentId ||
    m.apiOrigin !== scope.apiOrigin ||
    typeof m.shape !== "string"
  ) {
    throw mismatch(use);
  }
  const sandboxId = resourceId(providerLeaseId);
  if (m.sandboxId !== sandboxId) throw mismatch(use);
  const spec: SandboxSpec = {
    shape: m.shape,
    rootfs: typeof m.rootfs === "string" ? m.rootfs : undefined,
    region: typeof m.region === "string" ? m.region : undefined,
  };
  return buildLeaseMetadata(sandboxId, scope, spec, typeof m.marker === "string" ? m.marker : "");
}

/** A marker the plugin could have written: 32 random bytes in hex. */
export function hasValidMarker(metadata: LeaseMetadata): boolean {
  return /^[0-9a-f]{64}$/.test(metadata.marker);
}

/** Whether the lease was made with the config's shape, rootfs and region (else reuse has expired). */
export function leaseSpecMatches(metadata: LeaseMetadata, spec: SandboxSpec): boolean {
  return (
    metadata.shape === spec.shape &&
    metadata.rootfs === (spec.rootfs ?? null) &&
    metadata.region === (spec.region ?? null)
  );
}
