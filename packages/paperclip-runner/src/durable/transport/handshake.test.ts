import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { TEST_DURABLE_IDENTITY } from "../../../test/helpers/durable-identity.js";
import { canonicalJson } from "../../commands/canonical-json.js";
import { credentialMaterial } from "./credential.js";
import { domainHmac } from "./domain-digest.js";
import { authHello, type HelloInput, sessionKeys, verifyChallenge } from "./handshake.js";

const identity = TEST_DURABLE_IDENTITY;
const input: HelloInput = {
  credential: credentialMaterial("bootstrap_ticket"),
  lease: null,
  identity,
  runnerVersion: "0.1.0",
  runnerDigest: `sha256:${"a".repeat(64)}`,
};

/** What a server holding `key` sends back for `hello`, with `change` applied to the challenge first. */
function challengeFor(
  hello: ReturnType<typeof authHello>,
  key: Buffer,
  change: (challenge: Record<string, unknown>) => void = () => undefined,
): Record<string, unknown> {
  const challenge: Record<string, unknown> = {
    credentialId: input.credential.credentialId,
    credentialKind: "bootstrap",
    clientNonce: hello.clientNonce,
    serverNonce: "server-nonce",
    ...identity,
    runnerVersion: input.runnerVersion,
    runnerDigest: input.runnerDigest,
    selectedVersion: 2,
    credentialLeaseId: null,
    credentialExpiresAtUnixMs: Date.now() + 60_000,
    revocationEpoch: 0,
  };
  change(challenge);
  const serverProof = domainHmac(key, "paperclip-runner-server-proof-v1", [
    Buffer.from(canonicalJson(challenge)),
  ]);
  return {
    protocol: "paperclip.runner",
    version: challenge.selectedVersion,
    kind: "auth_challenge",
    payload: { ...challenge, serverProof: serverProof.toString("hex") },
  };
}

describe("the durable handshake", () => {
  it("names the credential by its digest and echoes the run identity exactly, never the secret", () => {
    const hello = authHello(input, "nonce-1");
    expect(hello.message).toMatchObject({
      kind: "auth_hello",
      payload: {
        credentialId: input.credential.credentialId,
        clientNonce: "nonce-1",
        ...identity,
        protocolMin: 1,
      },
    });
    expect(JSON.stringify(hello.message)).not.toContain("bootstrap_ticket");
    expect(input.credential.credentialId).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("answers a challenge the credential's key proves with a client proof and derives distinct keys per direction", () => {
    const hello = authHello(input);
    const verified = verifyChallenge(challengeFor(hello, input.credential.authKey), hello, input);
    expect(verified.response).toMatchObject({
      kind: "auth_response",
      payload: {
        clientNonce: hello.clientNonce,
        serverNonce: "server-nonce",
        clientProof: verified.clientProof,
      },
    });
    const keys = sessionKeys(input.credential.authKey, verified);
    expect(keys.sessionId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(keys.sendKey.equals(keys.receiveKey)).toBe(false);
  });

  it.each([1, 2])("speaks the version the server selects from those offered (%i)", (version) => {
    const hello = authHello(input);
    const challenge = challengeFor(hello, input.credential.authKey, (fields) => {
      fields.selectedVersion = version;
    });
    const verified = verifyChallenge(challenge, hello, input);
    expect(verified.selectedVersion).toBe(version);
    expect(verified.response).toMatchObject({ version, kind: "auth_response" });
  });

  it.each([0, 3, 1.5])("refuses a selected version it did not offer (%s)", (version) => {
    const hello = authHello(input);
    const challenge = challengeFor(hello, input.credential.authKey, (fields) => {
      fields.selectedVersion = version;
    });
    const error = caughtSync(() => verifyChallenge(challenge, hello, input));
    expect(error.code).toBe("ERR_RUNNER_DURABLE_SERVER_PROOF");
    expect(error.details).toEqual({ reason: "version" });
  });

  it.each([
    [
      "missing_proof",
      (message: Record<string, unknown>) => delete (message.payload as Record<string, unknown>).serverProof,
    ],
    ["not_a_challenge", (message: Record<string, unknown>) => Object.assign(message, { kind: "welcome" })],
  ])("refuses a challenge with ERR_RUNNER_DURABLE_SERVER_PROOF (%s)", (reason, change) => {
    const hello = authHello(input);
    const message = challengeFor(hello, input.credential.authKey);
    change(message);
    const error = caughtSync(() => verifyChallenge(message, hello, input));
    expect(error.code).toBe("ERR_RUNNER_DURABLE_SERVER_PROOF");
    expect(error.details).toEqual({ reason });
  });

  it("refuses a proof made with another key, before looking at anything else", () => {
    const hello = authHello(input);
    const error = caughtSync(() =>
      verifyChallenge(challengeFor(hello, credentialMaterial("another ticket").authKey), hello, input),
    );
    expect(error.code).toBe("ERR_RUNNER_DURABLE_SERVER_PROOF");
    expect(error.message).toBe(
      "durable handshake failed: the server proof does not match this runner's credential",
    );
  });

  it("refuses an authentic challenge about another nonce or another run", () => {
    const hello = authHello(input);
    const error = caughtSync(() =>
      verifyChallenge(
        challengeFor(hello, input.credential.authKey, (challenge) => {
          challenge.clientNonce = "replayed";
          challenge.runId = "run-2";
        }),
        hello,
        input,
      ),
    );
    expect(error.code).toBe("ERR_RUNNER_DURABLE_SERVER_PROOF");
    expect(error.message).toBe(
      "durable handshake failed: the auth_challenge does not match this runner (clientNonce, runId)",
    );
  });

  describe("the lease a challenge names", () => {
    const bound = { leaseId: "connection_lease_1", revocationEpoch: 3 };
    const leaseInput: HelloInput = { ...input, credential: credentialMaterial("lease_token"), lease: bound };
    const leaseChallenge = (challenge: Record<string, unknown>): void => {
      Object.assign(challenge, {
        credentialId: leaseInput.credential.credentialId,
        credentialKind: "lease",
        credentialLeaseId: bound.leaseId,
        revocationEpoch: 3,
      });
    };

    it("answers a lease reconnect whose challenge names the bound lease and epoch", () => {
      const hello = authHello(leaseInput);
      const challenge = challengeFor(hello, leaseInput.credential.authKey, leaseChallenge);
      expect(verifyChallenge(challenge, hello, leaseInput).response).toMatchObject({ kind: "auth_response" });
    });

    it.each([
      ["no lease id", (c: Record<string, unknown>) => delete c.credentialLeaseId, "credentialLeaseId"],
      [
        "another lease id",
        (c: Record<string, unknown>) => (c.credentialLeaseId = "connection_lease_2"),
        "credentialLeaseId",
      ],
      ["a lower epoch", (c: Record<string, unknown>) => (c.revocationEpoch = 2), "revocationEpoch"],
      ["a higher epoch", (c: Record<string, unknown>) => (c.revocationEpoch = 4), "revocationEpoch"],
      ["no epoch", (c: Record<string, unknown>) => delete c.revocationEpoch, "revocationEpoch"],
      [
        "the ticket's kind",
        (c: Record<string, unknown>) => (c.credentialKind = "bootstrap"),
        "credentialKind",
      ],
    ])("refuses, before answering, a lease reconnect's challenge with %s", (_name, change, field) => {
      const hello = authHello(leaseInput);
      const challenge = challengeFor(hello, leaseInput.credential.authKey, (c) => {
        leaseChallenge(c);
        change(c);
      });
      const error = caughtSync(() => verifyChallenge(challenge, hello, leaseInput));
      expect(error.code).toBe("ERR_RUNNER_DURABLE_SERVER_PROOF");
      expect(error.details).toEqual({ reason: "lease_binding" });
      expect(error.message).toBe(
        `durable handshake failed: the auth_challenge does not name the connection lease this runner offered (${field})`,
      );
    });

    it.each([
      [
        "a lease id",
        (c: Record<string, unknown>) => (c.credentialLeaseId = "connection_lease_1"),
        "credentialLeaseId",
      ],
      ["the lease kind", (c: Record<string, unknown>) => (c.credentialKind = "lease"), "credentialKind"],
    ])("refuses a ticket handshake's challenge that names %s", (_name, change, field) => {
      const hello = authHello(input);
      const error = caughtSync(() =>
        verifyChallenge(challengeFor(hello, input.credential.authKey, change), hello, input),
      );
      expect(error.details).toEqual({ reason: "lease_binding" });
      expect(error.message).toBe(
        `durable handshake failed: the auth_challenge does not name the bootstrap ticket this runner offered (${field})`,
      );
    });

    it("takes a ticket challenge that leaves the lease id out, or names any epoch (upstream's runner does too)", () => {
      const hello = authHello(input);
      const challenge = challengeFor(hello, input.credential.authKey, (c) => {
        delete c.credentialLeaseId;
        c.revocationEpoch = 5;
      });
      expect(verifyChallenge(challenge, hello, input).response).toMatchObject({ kind: "auth_response" });
    });
  });
});
