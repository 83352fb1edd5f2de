import { describe, expect, it } from "vitest";
import { closeSteps, type DriverResult, serverToolchainForFile } from "./helpers/codex-durable.js";
import { command, expectSameAnswers } from "./helpers/command-differential.js";
import { bothOnFakeProxy, opencodePrepare } from "./helpers/opencode-runs.js";
import { askStep, opencodeRequest, proxyAnswers, scriptedTurn } from "./helpers/opencode-scripts.js";
import { sizedQuestionSet } from "./helpers/sized-question-set.js";

// Differential: OpenCode questions open at once past upstream's 4 MiB bound on their size (ten
// requests of one large question set, the fake proxy asking without waiting for the answers);
// upstream's Rust runner and ours through the server's control plane. Each request counts twice its
// set and 358 bytes (the fake's ids and prompt): nine sets of 232 837 bytes fit, of 232 838 eight.
const toolchain = serverToolchainForFile();

const REFUSED = {
  error: {
    code: -32000,
    message: "Paperclip rejected this runtime request because the pending input capacity was reached",
  },
};
const CANCEL = { result: { resolution: { action: "cancel" } } };
const count = (result: DriverResult, type: string) =>
  result.committed.filter((event) => event.eventType === type).length;

describe("OpenCode's open questions past 4 MiB against upstream's runner", { timeout: 120_000 }, () => {
  it.each([
    [232_837, 9],
    [232_838, 8],
  ])(
    "refuses the requests past the bound (sets of %i bytes: %i open) in upstream's words",
    async (size, open) => {
      const input = sizedQuestionSet(size);
      const requests = Array.from({ length: 10 }, (_, index) => ({
        ...askStep(opencodeRequest({ requestId: `que_${index}`, itemId: `que_${index}`, input })),
        wait: false,
      }));
      const [ours, upstream] = await bothOnFakeProxy(toolchain(), (work, profile) => [
        ...command("run.prepare", "prepare", opencodePrepare(work, profile)),
        ...command("session.open", "open", { reuse: "same_session" }),
        scriptedTurn("ask", [...requests, { end: false }]),
        { op: "event", type: "provider.notice.recorded", count: 10 - open },
        { op: "queue", type: "turn.interrupt", id: "stop" },
        { op: "event", type: "run.terminal" },
        ...closeSteps,
      ]);
      for (const result of [ours, upstream]) {
        expect(result.failure).toBeNull();
        expect(count(result, "runtime_request.created")).toBe(open);
        expect(count(result, "provider.notice.recorded")).toBe(10 - open);
      }
      expect(proxyAnswers(ours.providerLog)).toEqual([
        ...Array(10 - open).fill(REFUSED),
        ...Array(open).fill(CANCEL),
      ]);
      expect(proxyAnswers(ours.providerLog)).toEqual(proxyAnswers(upstream.providerLog));
      expectSameAnswers(ours, upstream);
    },
  );
});
