import { describe, expect, it } from "vitest";
import {
  closeSteps,
  type DriverResult,
  eventTypes,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { command, expectSameAnswers } from "./helpers/command-differential.js";
import { nodeScriptLauncher } from "./helpers/native-stubs.js";
import {
  bothOnFakeProxy,
  FAKE_OPENCODE,
  launchProfile,
  opencodePrepare,
  serverProxy,
} from "./helpers/opencode-runs.js";

// Differential: the result OpenCode proposes through the MCP bridge of the server's own proxy
// (`paperclip_finish`, `paperclip_block`; the fake `opencode serve` calls it as OpenCode's model
// would), which the proxy hands the runner as `paperclip/runResult`; upstream's Rust runner and
// ours, each behind the server's control plane with the same proxy. The fake runs behind a native
// launcher: upstream's runner hands the proxy the executable as a sealed memory file.
const toolchain = serverToolchainForFile();

/** The payloads of `type`, the proxy's random turn ids normalised. */
const payloads = (result: DriverResult, type: string): Record<string, unknown>[] =>
  JSON.parse(
    JSON.stringify(
      result.committed.filter((event) => event.eventType === type).map((event) => event.payload),
    ).replace(/turn-[0-9a-f]{24}/g, "<turn>"),
  );
const tool = (prompt: string) => (prompt === "block" ? "paperclip_block" : "paperclip_finish");
/** What the bridge answered OpenCode, as the fake's last message says it. */
const bridgeSaid = (result: DriverResult) =>
  payloads(result, "item.completed")
    .map((payload) => payload.text)
    .filter((text) => typeof text === "string" && text.startsWith("paperclip_"));

describe("OpenCode's results through the proxy's bridge against upstream's runner", {
  timeout: 120_000,
}, () => {
  it.each([
    ["paperclip_finish", "finish", "done"],
    ["paperclip_finish called twice with the same result", "finish-twice", "done"],
    ["paperclip_block", "block", "blocked"],
  ])("commits the result of %s as upstream's", async (_name, prompt, disposition) => {
    const profile = launchProfile(serverProxy(toolchain()), nodeScriptLauncher(FAKE_OPENCODE));
    const [ours, upstream] = await bothOnFakeProxy(
      toolchain(),
      (work) => [
        ...command("run.prepare", "prepare", opencodePrepare(work, profile)),
        ...command("session.open", "open", { reuse: "same_session" }),
        ...command("turn.start", "turn", { text: prompt }),
        { op: "event", type: "run.terminal" },
        ...closeSteps,
      ],
      profile,
    );
    for (const result of [ours, upstream]) {
      expect(result.failure).toBeNull();
      expect(result.invalid).toEqual([]);
    }
    expectSameAnswers(ours, upstream);
    // One proposal (the proxy forwards a repeated identical result once), as it came, before the turn's end.
    expect(payloads(ours, "run.result.proposed")).toEqual([
      expect.objectContaining({
        reportedWorkDisposition: disposition,
        completionClaim: expect.objectContaining({ contractRevision: "rev-1" }),
      }),
    ]);
    for (const type of ["run.result.proposed", "run.terminal", "turn.completed"])
      expect({ type, payloads: payloads(ours, type) }).toEqual({ type, payloads: payloads(upstream, type) });
    const types = eventTypes(ours.committed);
    expect(types.indexOf("run.result.proposed")).toBeLessThan(types.indexOf("turn.completed"));
    expect(types).not.toContain("session.failed");
    // The bridge accepted each call, in both runs.
    expect(bridgeSaid(ours)).toEqual(bridgeSaid(upstream));
    const accepted = JSON.stringify([{ type: "text", text: JSON.stringify({ accepted: true }) }]);
    const calls = prompt === "finish-twice" ? [accepted, accepted] : [accepted];
    expect(bridgeSaid(ours)).toEqual([`${tool(prompt)} said ${calls.join(" then ")}`]);
  });
});
