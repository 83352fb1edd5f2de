import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nativeBridgePath } from "../src/bridge/native-bridge-path.js";
import { HANDOFF_SOCKET_NAME } from "../src/handoff/handoff-wire.js";
import { buildAttacks, echoServer } from "./attack-support.js";
import { closeAll, startProxy } from "./proxy-support.js";
import { cleanupAll, exec, scratchDir } from "./sandbox-support.js";

afterEach(async () => {
  await closeAll();
  await cleanupAll();
});

/** More offers than the courier's socket to the bridge holds, and than its queue (64). */
const TUNNELS = 600;

describe("the courier (class 8): no blocking send to a bridge that stopped reading", () => {
  it("a bridge that never reads its courier stalls only what it was given: later offers are refused and relayed", async () => {
    const ws = await scratchDir();
    const attacks = await buildAttacks(ws);
    const echo = await echoServer();
    const proxy = await startProxy({
      allowlist: [`127.0.0.1:${echo}`],
      trustedUrls: [],
      handoffBridge: nativeBridgePath()!,
      limits: { handoffAfterBytes: 1, maxConnections: TUNNELS + 64 },
    });
    const dir = path.dirname(proxy.socketPath);
    // The stalling "bridge" runs as one would: in a sandbox whose bwrap names the run's directory.
    const run = await exec("bwrap", [
      ...[
        "--dev-bind",
        "/",
        "/",
        "--unshare-net",
        "--unshare-pid",
        "--die-with-parent",
        "--ro-bind",
        dir,
        dir,
        "--",
      ],
      ...[attacks, "stall-courier", path.join(dir, HANDOFF_SOCKET_NAME), path.join(dir, "relay.sock")],
      ...[String(echo), String(TUNNELS)],
    ]);
    expect(run.stdout, run.stderr).toBe("last tunnel echoed\n");
  }, 60_000);
});
