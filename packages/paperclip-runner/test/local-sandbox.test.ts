import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { buildPlantedLoader, processesWith, tempDirForTest } from "@paperclipai/test-support";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  builtinHarnessArgs,
  Controller,
  IDS,
  runResult,
  type WireEvent,
  writeScript,
} from "./local-controller.js";

/** A harness (plain Node, protocol by hand) that reports whether it can reach `argv[1]` (host:port). */
const CONNECT_HARNESS = `
const out = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
out({ type: "ready" });
const [host, port] = process.argv[1].split(":");
const socket = require("node:net").connect(Number(port), host);
const report = (payload) => { out({ type: "event", event: { eventType: "session.updated", payload } }); process.exit(0); };
socket.on("connect", () => report({ connected: true }));
socket.on("error", (error) => report({ connected: false, code: error.code }));
`;

/** A harness that asks its sandbox proxy (HTTP_PROXY) for a host that is not on the allowlist. */
const PROXY_HARNESS = `
const out = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
const report = (payload) => { out({ type: "event", event: { eventType: "session.updated", payload } }); process.exit(0); };
out({ type: "ready" });
const proxy = new URL(process.env.HTTP_PROXY);
const request = require("node:http").request(
  { host: proxy.hostname, port: proxy.port, path: "http://not-allowed.example/", headers: { host: "not-allowed.example" } },
  (response) => report({ status: response.statusCode, error: response.headers["x-proxy-error"] ?? null }),
);
request.on("error", (error) => report({ error: error.code }));
request.end();
`;

/** A harness that reports the value of LD_PRELOAD it was started with. */
const PRELOAD_HARNESS = `
const out = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
out({ type: "ready" });
out({ type: "event", event: { eventType: "session.updated", payload: { preload: process.env.LD_PRELOAD ?? null } } });
process.exit(0);
`;

async function runToTerminal(controller: Controller): Promise<WireEvent[]> {
  controller.send("run.prepare", "c1");
  controller.send("session.open", "c2");
  controller.send("turn.start", "c3");
  await controller.waitForEvent("run.terminal", 20_000);
  expect((await controller.exited).code).toBe(0);
  return controller.events();
}

/** What the hand-written harness reported. */
function resultOf(events: readonly WireEvent[]): unknown {
  return events.find((event) => event.eventType === "session.updated")?.payload;
}

const reasonOf = (events: readonly WireEvent[]): unknown =>
  (events.at(-1)?.payload.reconciliation as { reason?: string } | undefined)?.reason;

// Real processes on a busy 2-core CI machine: far more than vitest\'s 5 s default.

/** The runner's flags that make `node -e <script>` its harness. */
function nodeHarness(script: string): string[] {
  return ["--harness-command", process.execPath, "--harness-arg", "-e", "--harness-arg", script];
}

describe("local mode with the harness in the adapter-utils sandbox", { timeout: 60_000 }, () => {
  let server: Server;
  let address: string;
  beforeAll(async () => {
    server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    address = `127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("lets the scripted harness write only inside the workspace", async () => {
    const dir = tempDirForTest("runner-sandbox-fs-");
    const workspace = join(dir, "workspace");
    const outside = join(dir, "outside");
    mkdirSync(workspace);
    mkdirSync(outside);
    const inside = writeScript(dir, {
      commandLog: join(workspace, "commands.log"),
      steps: [
        { ready: {} },
        { waitFor: "turn.start" },
        { appendFile: { path: join(workspace, "out.txt"), text: "hi" } },
        { result: runResult() },
        { exit: 0 },
      ],
    });
    const escapeScript = writeScript(
      dir,
      {
        steps: [
          { ready: {} },
          { waitFor: "turn.start" },
          { appendFile: { path: join(outside, "out.txt"), text: "x" } },
          { result: runResult() },
        ],
      },
      "escape.json",
    );
    const sandbox = ["--sandbox-workspace", workspace];
    const ok = await runToTerminal(new Controller(builtinHarnessArgs(inside, sandbox)));
    expect(ok.find((event) => event.eventType === "harness.starting")?.payload.sandboxed).toBe(true);
    expect(reasonOf(ok)).toBe("successful_process_and_result");
    expect(readFileSync(join(workspace, "out.txt"), "utf8")).toBe("hi");
    expect(readFileSync(join(workspace, "commands.log"), "utf8")).toContain('"command":"turn.start"');

    const denied = await runToTerminal(new Controller(builtinHarnessArgs(escapeScript, sandbox)));
    expect(reasonOf(denied)).toBe("harness_process_failed");
    expect(
      JSON.stringify(denied.find((event) => event.eventType === "harness.exited")?.payload.logs),
    ).toContain("ENOENT");
    expect(existsSync(join(outside, "out.txt"))).toBe(false);
  });

  it("denies the network to a sandboxed harness that reaches the same loopback server unsandboxed", async () => {
    const workspace = tempDirForTest("runner-sandbox-net-");
    const harness = [...nodeHarness(CONNECT_HARNESS), "--harness-arg", address];
    const plain = await runToTerminal(new Controller([...IDS, ...harness]));
    expect(resultOf(plain)).toEqual({ connected: true });
    const sandboxed = await runToTerminal(
      new Controller([...IDS, ...harness, "--sandbox-workspace", workspace]),
    );
    expect(resultOf(sandboxed)).toMatchObject({ connected: false });
  });

  it("routes an allowlisted sandbox through the proxy, which refuses a host not on the list", async () => {
    const workspace = tempDirForTest("runner-sandbox-proxy-");
    const harness = [...nodeHarness(PROXY_HARNESS)];
    const events = await runToTerminal(
      new Controller([
        ...IDS,
        ...harness,
        "--sandbox-workspace",
        workspace,
        "--sandbox-allow",
        "api.example.com",
      ]),
    );
    expect(resultOf(events)).toMatchObject({ status: 403 });
  });

  it("leaves no sandboxed process behind when the run is cancelled", async () => {
    const dir = tempDirForTest("runner-sandbox-stop-");
    const workspace = join(dir, "workspace");
    mkdirSync(workspace);
    // The sleeper's duration is its marker in the process table: derived from this worker's pid, no
    // other live process's sleeper has it (a random one could equal another test's 60 000 ms sleeper).
    const marker = String(100_000 + process.pid);
    const script = writeScript(dir, {
      ignoreSigterm: true,
      ignoreStdinEof: true,
      steps: [
        { ready: {} },
        { spawnSleeper: { pidFile: join(workspace, "sleeper.pid"), ms: Number(marker) } },
        { event: { eventType: "item.started", payload: { spawned: true } } },
        { sleep: 60_000 },
      ],
    });
    const controller = new Controller(builtinHarnessArgs(script, ["--sandbox-workspace", workspace]));
    controller.send("run.prepare", "c1");
    controller.send("session.open", "c2");
    await controller.waitForEvent("item.started", 20_000);
    expect(processesWith(`setTimeout(() => {}, ${marker})`)).toHaveLength(1);
    controller.send("run.cancel", "c3");
    await controller.waitForEvent("run.terminal");
    expect((await controller.exited).code).toBe(0);
    // A pid namespace that was just killed tears down soon, though not at once on a loaded machine.
    await vi.waitFor(() => expect(processesWith(`setTimeout(() => {}, ${marker})`)).toEqual([]), {
      timeout: 20_000,
      interval: 100,
    });
  });

  // bwrap runs on the host: a loader variable passed to the harness must not load code into it.
  it("hands a passed LD_PRELOAD to the sandboxed harness without loading it into bwrap", async () => {
    const workspace = tempDirForTest("runner-sandbox-preload-");
    const marker = join(tempDirForTest("runner-sandbox-marker-"), "loaded-by");
    const planted = buildPlantedLoader(join(workspace, "planted.so"), marker);
    const harness = [...nodeHarness(PRELOAD_HARNESS)];
    const events = await runToTerminal(
      new Controller([...IDS, ...harness, "--sandbox-workspace", workspace], {
        ...process.env,
        PAPERCLIP_RUNNER_HARNESS_ENV: "LD_PRELOAD",
        LD_PRELOAD: planted,
      }),
    );
    const loadedBy = existsSync(marker) ? readFileSync(marker, "utf8").split("\n") : [];
    expect(loadedBy).not.toContain("bwrap");
    expect(resultOf(events)).toEqual({ preload: planted });
  });
});
