import { CreateosError } from "@paperclipai/errors";
import { resourceId } from "../client/envelope.js";
import type { SandboxSpec } from "./sandbox-api.js";

/** Where the random marker that proves a resumed sandbox is ours lives. */
export const WORKSPACE_PATH = "/paperclip-workspace";
export const MARKER_PATH = `${WORKSPACE_PATH}/.paperclip-lease`;

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
  };
}

function mismatch(): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_LEASE_MISMATCH",
    "CreateOS lease metadata does not match this company, environment or API origin.",
  );
}

/** Checks the binding (company, environment, origin, id); the sandbox id comes back validated. */
export function verifyLeaseBinding(
  providerLeaseId: unknown,
  metadata: unknown,
  scope: LeaseScope,
): LeaseMetadata {
  const sandboxId = resourceId(providerLeaseId);
  if (typeof metadata !== "object" || metadata === null) throw mismatch();
  const m = metadata as Record<string, unknown>;
  if (
    m.provider !== "createos" ||
    m.sandboxId !== sandboxId ||
    m.companyId !== scope.companyId ||
    m.environmentId !== scope.environmentId ||
    m.apiOrigin !== scope.apiOrigin ||
    typeof m.marker !== "string" ||
    !/^[0-9a-f]{64}$/.test(m.marker) ||
    typeof m.shape !== "string"
  ) {
    throw mismatch();
  }
  const spec: SandboxSpec = {
    shape: m.shape,
    rootfs: typeof m.rootfs === "string" ? m.rootfs : undefined,
    region: typeof m.region === "string" ? m.region : undefined,
  };
  return buildLeaseMetadata(sandboxId, scope, spec, m.marker);
}

/** Shape, rootfs or region changed since the lease was made: reuse has expired. */
export function verifyLeaseSpec(metadata: LeaseMetadata, spec: SandboxSpec): void {
  if (
    metadata.shape !== spec.shape ||
    metadata.rootfs !== (spec.rootfs ?? null) ||
    metadata.region !== (spec.region ?? null)
  ) {
    throw new CreateosError(
      "ERR_CREATEOS_LEASE_EXPIRED",
      "CreateOS lease was created with another shape, rootfs or region; acquire a new lease.",
      { details: { sandboxId: metadata.sandboxId } },
    );
  }
}
