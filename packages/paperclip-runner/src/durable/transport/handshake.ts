import { randomUUID, timingSafeEqual } from "node:crypto";
import { RunnerError } from "@paperclipai/errors";
import { canonicalJson } from "../../commands/canonical-json.js";
import { type DurableIdentity, identityFields } from "../durable-identity.js";
import type { CredentialMaterial } from "./credential.js";
import { challengeCredentialExpiry } from "./credential-expiry.js";
import { domainDigest, domainHmac } from "./domain-digest.js";
import { checkChallengeLease, type LeaseBinding } from "./lease-binding.js";
import { type LeaseExpiry, leaseClock } from "./lease-expiry.js";
import { PRP_PROTOCOL, PRP_VERSION_MAX, PRP_VERSION_MIN } from "./prp-versions.js";

export interface HelloInput {
  readonly credential: CredentialMaterial;
  /**
   * The lease the credential is (its id and epoch, as the ticket's welcome granted it); null: the
   * credential is the bootstrap ticket, whose welcome must grant a lease token.
   */
  readonly lease: LeaseBinding | null;
  /** The expiry of that lease as the runner holds it: its challenge's expiry is counted from it. */
  readonly leaseExpiry?: LeaseExpiry | null;
  readonly identity: DurableIdentity;
  readonly runnerVersion: string;
  readonly runnerDigest: string;
}

export interface AuthHello {
  readonly message: Record<string, unknown>;
  readonly clientNonce: string;
}

/** The plain-JSON first message: which credential, which run, which versions. */
export function authHello(input: HelloInput, clientNonce: string = randomUUID()): AuthHello {
  return {
    clientNonce,
    message: {
      protocol: PRP_PROTOCOL,
      version: PRP_VERSION_MAX,
      kind: "auth_hello",
      payload: {
        credentialId: input.credential.credentialId,
        clientNonce,
        ...identityFields(input.identity),
        runnerVersion: input.runnerVersion,
        runnerDigest: input.runnerDigest,
        protocolMin: PRP_VERSION_MIN,
        protocolMax: PRP_VERSION_MAX,
      },
    },
  };
}

/** What a verified challenge establishes. */
export interface VerifiedChallenge {
  readonly selectedVersion: number;
  readonly serverNonce: string;
  readonly canonicalChallenge: string;
  readonly serverProof: string;
  /** The answer to send: it proves the runner holds the same key. */
  readonly response: Record<string, unknown>;
  readonly clientProof: string;
}

const HEX_64 = /^[0-9a-f]{64}$/;

/**
 * Checks the server's `auth_challenge` before anything else: the server must prove
 * it holds the credential's key over the exact challenge, which must echo our
 * nonce, credential, identity and lease (`lease-binding.ts`). Throws `ERR_RUNNER_DURABLE_SERVER_PROOF` otherwise.
 * `onProven` is called as soon as the proof is found valid for this hello, before the other checks.
 */
export function verifyChallenge(
  message: unknown,
  hello: AuthHello,
  input: HelloInput,
  onProven: () => void = () => undefined,
): VerifiedChallenge {
  if (!isRecord(message) || message.protocol !== PRP_PROTOCOL || message.kind !== "auth_challenge") {
    throw proofError("the server did not answer auth_hello with an auth_challenge", "not_a_challenge");
  }
  const payload = message.payload;
  if (!isRecord(payload)) throw proofError("the auth_challenge has no payload", "no_payload");
  const { serverProof, ...challenge } = payload;
  if (typeof serverProof !== "string" || !HEX_64.test(serverProof)) {
    throw proofError("the auth_challenge carries no server proof", "missing_proof");
  }
  const canonicalChallenge = canonicalJson(challenge);
  const expected = domainHmac(input.credential.authKey, "paperclip-runner-server-proof-v1", [
    Buffer.from(canonicalChallenge),
  ]);
  if (!timingSafeEqual(expected, Buffer.from(serverProof, "hex"))) {
    throw proofError("the server proof does not match this runner's credential", "wrong_proof");
  }
  // Authentic, yet it must be about this connection and this run.
  const identity = identityFields(input.identity);
  const stale = [
    ...(challenge.credentialId === input.credential.credentialId ? [] : ["credentialId"]),
    ...(challenge.clientNonce === hello.clientNonce ? [] : ["clientNonce"]),
  ];
  // The proof covers this hello's credential and nonce: naming them, the peer holds the credential
  // now (a challenge captured earlier and replayed would not), so every refusal from here on is the
  // server's own (another run, another lease, a passed expiry), not a stranger's.
  if (stale.length === 0) onProven();
  const mismatched = [
    ...stale,
    ...Object.entries(identity)
      .filter(([key, value]) => challenge[key] !== value)
      .map(([key]) => key),
  ];
  if (mismatched.length > 0) {
    throw proofError(`the auth_challenge does not match this runner (${mismatched.join(", ")})`, "mismatch");
  }
  checkChallengeLease(challenge, input.lease);
  challengeCredentialExpiry(
    challenge.credentialExpiresAtUnixMs,
    input.lease === null ? null : (input.leaseExpiry ?? null),
    leaseClock(),
  );
  const selectedVersion = challenge.selectedVersion;
  if (
    typeof selectedVersion !== "number" ||
    !Number.isInteger(selectedVersion) ||
    selectedVersion < PRP_VERSION_MIN ||
    selectedVersion > PRP_VERSION_MAX ||
    message.version !== selectedVersion
  ) {
    throw proofError("the server selected a protocol version this runner does not speak", "version");
  }
  if (typeof challenge.serverNonce !== "string")
    throw proofError("the auth_challenge has no server nonce", "nonce");
  const clientProof = domainHmac(input.credential.authKey, "paperclip-runner-client-proof-v1", [
    Buffer.from(canonicalChallenge),
    Buffer.from(serverProof),
  ]).toString("hex");
  return {
    selectedVersion,
    serverNonce: challenge.serverNonce,
    canonicalChallenge,
    serverProof,
    clientProof,
    response: {
      protocol: PRP_PROTOCOL,
      version: selectedVersion,
      kind: "auth_response",
      payload: {
        credentialId: input.credential.credentialId,
        clientNonce: hello.clientNonce,
        serverNonce: challenge.serverNonce,
        clientProof,
      },
    },
  };
}

/** The per-connection session both sides derive from the completed handshake. */
export interface SessionKeys {
  readonly sessionId: string;
  /** Runner to server. */
  readonly sendKey: Buffer;
  /** Server to runner. */
  readonly receiveKey: Buffer;
}

export function sessionKeys(authKey: Buffer, challenge: VerifiedChallenge): SessionKeys {
  const binding = domainDigest("paperclip-runner-session-binding-v1", [
    Buffer.from(challenge.canonicalChallenge),
    Buffer.from(challenge.serverProof),
    Buffer.from(challenge.clientProof),
  ]);
  return {
    sessionId: `sha256:${binding.toString("hex")}`,
    sendKey: domainHmac(authKey, "paperclip-runner-client-to-core-key-v1", [binding]),
    receiveKey: domainHmac(authKey, "paperclip-runner-core-to-client-key-v1", [binding]),
  };
}

function proofError(message: string, reason: string): RunnerError {
  return new RunnerError("ERR_RUNNER_DURABLE_SERVER_PROOF", `durable handshake failed: ${message}`, {
    details: { reason },
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
