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
  withTicket: true,
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
});
