import { describe, expect, it, onTestFinished } from "vitest";
import { JsonRpcPeer, type ProviderInbound } from "./json-rpc-peer.js";

// A real provider process (a node one-liner) behind the peer, stopped however the test ends.
function peerOn(script: string, onInbound: (message: ProviderInbound) => Promise<void>): JsonRpcPeer {
  const peer = new JsonRpcPeer(
    { command: process.execPath, args: ["-e", script], cwd: process.cwd(), env: {} },
    onInbound,
    // A request timeout only bounds a hang: the provider here is a node process starting on a
    // possibly loaded machine, and no test waits for the timeout.
    20_000,
  );
  onTestFinished(() => peer.process.stop(0).then(() => undefined));
  return peer;
}

describe("JsonRpcPeer", () => {
  it("fails the connection on a message the runner could not handle, instead of dropping it", async () => {
    const seen: ProviderInbound[] = [];
    let violated: (message: ProviderInbound) => void = () => undefined;
    const violation = new Promise<ProviderInbound>((resolve) => {
      violated = resolve;
    });
    peerOn(
      'process.stdout.write(JSON.stringify({ method: "turn/plan/updated", params: {} }) + "\\n"); setInterval(() => {}, 1000);',
      async (message) => {
        seen.push(message);
        if (message.kind === "notification") throw new TypeError("a bug in a handler");
        if (message.kind === "violation") violated(message);
      },
    );
    const message = await violation;
    expect(message.kind === "violation" && message.error.code).toBe("ERR_RUNNER_PROVIDER_PROTOCOL");
    expect(message.kind === "violation" && message.error.message).toBe(
      "provider protocol violation: the runner could not handle a turn/plan/updated message",
    );
    expect(seen.map((each) => each.kind)).toEqual(["notification", "violation"]);
  });

  it("fails every request after a violation with that violation, however the lines were read", async () => {
    // The answer twice in one write: the first resolves `initialize`, the second breaks the
    // protocol before the caller's next request, which must then carry the violation itself.
    const answer = JSON.stringify({ id: 1, result: { userAgent: "fake" } });
    const peer = peerOn(
      `process.stdin.once("data", () => process.stdout.write(${JSON.stringify(`${answer}\n${answer}\n`)})); setInterval(() => {}, 1000);`,
      async () => undefined,
    );
    await expect(peer.request("initialize", {})).resolves.toEqual({ userAgent: "fake" });
    await expect(peer.request("thread/start", {})).rejects.toMatchObject({
      code: "ERR_RUNNER_PROVIDER_PROTOCOL",
      message: "provider protocol violation: an answer names no request the runner sent",
    });
  });
});
