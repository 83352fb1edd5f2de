import { describe, expect, it } from "vitest";
import { runtimeRequestId } from "../src/provider/runtime-request-id.js";
import {
  closeSteps,
  codexPrepare,
  type DriverResult,
  driveCodexRunner,
  fakeCodexArgs,
  type Step,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { command } from "./helpers/command-differential.js";
import { zeroRandomPreload } from "./helpers/native-stubs.js";
import {
  driveOpencode,
  FAKE_OPENCODE_PROXY,
  launchProfile,
  opencodePrepare,
} from "./helpers/opencode-runs.js";
import { askStep, opencodeRequest, scriptedTurn } from "./helpers/opencode-scripts.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// The runtime request ids of upstream's Rust runner, compared un-normalised with ours'
// `runtimeRequestId`: upstream's runner draws a random 16-byte scope for them, so its ids are
// read with `getrandom` made to fill zeros (an LD_PRELOAD shim) and compared with the ids
// `runtimeRequestId` forms over a zero scope. Without the shim, each runner's ids change from one
// run to the next, upstream's as ours.
const toolchain = serverToolchainForFile();
const ZERO = new Uint8Array(16);

const ids = (result: DriverResult): string[] =>
  result.committed
    .filter((event) => event.eventType === "runtime_request.created")
    .map((event) => (event.payload.request as { requestId: string }).requestId);

/** OpenCode asking que_1, que_1 again and que_2 (under another item id) at once, then interrupted. */
const opencodeAsks = (work: string, profile: Record<string, string>): Step[] => [
  ...command("run.prepare", "prepare", opencodePrepare(work, profile)),
  ...command("session.open", "open", { reuse: "same_session" }),
  scriptedTurn("ask", [
    ...[opencodeRequest(), opencodeRequest(), opencodeRequest({ requestId: "que_2", itemId: "item-9" })].map(
      (request) => ({ ...askStep(request), wait: false }),
    ),
    { end: false },
  ]),
  { op: "event", type: "runtime_request.created", count: 3 },
  { op: "queue", type: "turn.interrupt", id: "stop" },
  { op: "event", type: "run.terminal" },
  ...closeSteps,
];

const runOpencode = (bin?: string, env?: Record<string, string>) =>
  withWork((work) => {
    const profile = launchProfile(FAKE_OPENCODE_PROXY);
    return driveOpencode(toolchain(), work, profile, opencodeAsks(work, profile), bin, env);
  });

/** Codex's "ask" (the fake app-server's JSON-RPC request `srv-1`, or `1` with `args`), interrupted. */
const runCodex = (bin?: string, env?: Record<string, string>, args?: string[]) =>
  withWork((work) =>
    driveCodexRunner(
      toolchain(),
      work,
      [
        ...command("run.prepare", "prepare", codexPrepare(work, args === undefined ? {} : { args })),
        ...command("session.open", "open", { reuse: "same_session" }),
        ...command("turn.start", "ask", { text: "ask" }),
        { op: "event", type: "runtime_request.created" },
        ...command("turn.interrupt", "stop", {}),
        { op: "event", type: "run.terminal" },
        ...closeSteps,
      ],
      {
        ...(bin === undefined ? {} : { runnerBin: bin }),
        ...(env === undefined ? {} : { launcherEnv: env }),
      },
    ),
  );

describe("runtime request ids against upstream's runner", { timeout: 120_000 }, () => {
  it("forms OpenCode's ids as upstream's: the turn, the proxy's requestId and the request's sequence", async () => {
    const upstream = await runOpencode(upstreamRunner(), { LD_PRELOAD: zeroRandomPreload() });
    expect(upstream.failure).toBeNull();
    expect(ids(upstream)).toEqual([
      runtimeRequestId(ZERO, "turn-1", "que_1", 1n),
      runtimeRequestId(ZERO, "turn-1", "que_1", 2n),
      runtimeRequestId(ZERO, "turn-1", "que_2", 3n),
    ]);
  });

  it.each([
    ["a string", "srv-1", undefined],
    ["a number, as real Codex's", "1", fakeCodexArgs("numeric-ids")],
  ])(
    "forms Codex's ids as upstream's: the turn, Codex's JSON-RPC id (%s) and the request's sequence",
    async (_name, key, args) => {
      const upstream = await runCodex(upstreamRunner(), { LD_PRELOAD: zeroRandomPreload() }, args);
      expect(upstream.failure).toBeNull();
      expect(ids(upstream)).toEqual([runtimeRequestId(ZERO, "turn-1", key, 1n)]);
    },
  );

  it.each([
    ["OpenCode", runOpencode],
    ["Codex", runCodex],
  ])("draws %s's ids under a new random scope in each run, as upstream's", async (_name, run) => {
    for (const bin of [upstreamRunner(), undefined]) {
      const [first, second] = [await run(bin), await run(bin)];
      for (const result of [first, second]) {
        expect(result.failure).toBeNull();
        expect(ids(result).every((id) => /^runtime-request-[0-9a-f]{64}$/.test(id))).toBe(true);
        expect(new Set(ids(result)).size).toBe(ids(result).length);
      }
      expect(ids(first)).toHaveLength(ids(second).length);
      expect(ids(first).filter((id) => ids(second).includes(id))).toEqual([]);
    }
  });
});
