/**
 * The hand-made PRP server's side of the handshake: the `auth_challenge` it signs for a
 * runner's `auth_hello` (with the lease a token was granted as), and the session keys both
 * sides derive from the challenge and the runner's proof.
 */
import { randomUUID } from "node:crypto";
import { canonicalJson } from "../../src/commands/canonical-json.js";
import { credentialMaterial } from "../../src/durable/transport/credential.js";
import { domainDigest, domainHmac } from "../../src/durable/transport/domain-digest.js";
import { HAND_MADE_IDENTITY } from "./hand-made-identity.js";
import type { SessionKeys } from "./server-secure-frames.js";

/** A connection lease a hand-made server granted: what it names when the lease authenticates again. */
export interface LeaseGrant {
  readonly leaseId: unknown;
  readonly revocationEpoch: unknown;
  expiresAtUnixMs: unknown;
}

/**
 * The leases the hand-made servers of this test process granted, by token, as the server keeps
 * them: a handshake with a granted token is a lease reconnect, whose challenge and welcome name
 * that lease (a token is one lease; the last welcome that granted it wins).
 */
const GRANTED = new Map<string, LeaseGrant>();

/** The lease `token` is, if a hand-made server of this process granted it. */
export const grantedLease = (token: string): LeaseGrant | null => GRANTED.get(token) ?? null;

/** Records the lease a welcome granted as `token`. */
export function rememberGrant(token: string, grant: LeaseGrant): void {
  GRANTED.set(token, grant);
}

/** A challenge for `hello`, as the server holding `secret` signs it (`label`: another proof label, for forgeries). */
export interface SignedChallenge {
  readonly canonical: string;
  readonly serverProof: string;
  /** The `auth_challenge` message as sent. */
  readonly text: string;
}

/** The server's `auth_challenge` answering `hello`; `change` edits the challenge before it is signed. */
export function signedChallenge(
  hello: { payload: Record<string, unknown> },
  secret: string,
  options: {
    change?: (challenge: Record<string, unknown>) => void;
    label?: string;
    /** The server's clock (a ticket's expiry is a minute from it): this machine's unless given. */
    nowMs?: number;
  } = {},
): SignedChallenge {
  const nowMs = options.nowMs ?? Date.now();
  const challenge: Record<string, unknown> = {
    credentialId: hello.payload.credentialId,
    credentialKind: "bootstrap",
    clientNonce: hello.payload.clientNonce,
    serverNonce: randomUUID(),
    ...HAND_MADE_IDENTITY,
    runnerVersion: hello.payload.runnerVersion,
    runnerDigest: hello.payload.runnerDigest,
    selectedVersion: 2,
    credentialLeaseId: null,
    credentialExpiresAt: new Date(nowMs + 60_000).toISOString(),
    credentialExpiresAtUnixMs: nowMs + 60_000,
    revocationEpoch: 0,
  };
  const grant = GRANTED.get(secret);
  if (grant !== undefined) {
    // A lease reconnect: the server names the lease the credential is, as it stored it.
    Object.assign(challenge, {
      credentialKind: "lease",
      credentialLeaseId: grant.leaseId,
      credentialExpiresAt: new Date(grant.expiresAtUnixMs as number).toISOString(),
      credentialExpiresAtUnixMs: grant.expiresAtUnixMs,
      revocationEpoch: grant.revocationEpoch,
    });
  }
  options.change?.(challenge);
  const canonical = canonicalJson(challenge);
  const serverProof = domainHmac(
    credentialMaterial(secret).authKey,
    options.label ?? "paperclip-runner-server-proof-v1",
    [Buffer.from(canonical)],
  ).toString("hex");
  const text = JSON.stringify({
    protocol: "paperclip.runner",
    version: challenge.selectedVersion,
    kind: "auth_challenge",
    payload: { ...challenge, serverProof },
  });
  return { canonical, serverProof, text };
}

/** The keys of the session the challenge (`canonical`, proven by `serverProof`) and the runner's `clientProof` bind. */
export function sessionKeys(
  ticket: string,
  canonical: string,
  serverProof: string,
  clientProof: string,
): SessionKeys {
  const { authKey } = credentialMaterial(ticket);
  const binding = domainDigest("paperclip-runner-session-binding-v1", [
    Buffer.from(canonical),
    Buffer.from(serverProof),
    Buffer.from(clientProof),
  ]);
  return {
    sessionId: `sha256:${binding.toString("hex")}`,
    sendKey: domainHmac(authKey, "paperclip-runner-core-to-client-key-v1", [binding]),
    receiveKey: domainHmac(authKey, "paperclip-runner-client-to-core-key-v1", [binding]),
  };
}
