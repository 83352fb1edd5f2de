import { RunnerError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { closedAfterProof, REFUSED_PROOF_RETRIES, retriesRefusedProof } from "./refused-client-proof.js";

describe("a handshake the server closed on after the client proof", () => {
  it("is tried again on a lease reconnect, twice between welcomes, then is final", () => {
    expect(REFUSED_PROOF_RETRIES).toBe(2);
    expect(retriesRefusedProof(closedAfterProof(), true, 0)).toBe(true);
    expect(retriesRefusedProof(closedAfterProof(), true, 1)).toBe(true);
    expect(retriesRefusedProof(closedAfterProof(), true, 2)).toBe(false);
  });

  it("is final on a ticket's handshake", () => {
    expect(retriesRefusedProof(closedAfterProof(), false, 0)).toBe(false);
  });

  it("is the only server-proof failure tried again", () => {
    const oversized = new RunnerError(
      "ERR_RUNNER_DURABLE_SERVER_PROOF",
      "durable handshake failed: too large",
      {
        details: { reason: "oversized" },
      },
    );
    expect(retriesRefusedProof(oversized, true, 0)).toBe(false);
    expect(retriesRefusedProof(new Error("refused_client_proof"), true, 0)).toBe(false);
  });
});
