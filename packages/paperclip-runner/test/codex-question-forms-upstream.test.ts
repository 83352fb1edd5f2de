import { describe, expect, it } from "vitest";
import {
  closeSteps,
  type DriverResult,
  firstEvent,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { command, expectSameAnswers, expectSessionFailedOnProtocol } from "./helpers/command-differential.js";
import type { Frame } from "./helpers/descendant-differential.js";
import { ask, driveHeld, mark, opened } from "./helpers/frames-requests.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Differential: Codex's `item/tool/requestUserInput` forms at and past upstream's bounds (texts
// it cuts, questions, options and ids it refuses), written by the fake app-server's "frames:"
// script; upstream's Rust runner and ours through the server's control plane.
const toolchain = serverToolchainForFile();

const form = (questions: unknown[]) =>
  ask(1, { threadId: "$THREAD", turnId: "$TURN", itemId: "ask", questions });
const options = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ label: `o${index}`, description: "d" }));
const plain = { id: "q", header: "H", question: "Q?" };

interface CreatedQuestion {
  readonly id: string;
  readonly header?: string;
  readonly prompt: string;
  readonly answerMode: string;
  readonly options: readonly { readonly label: string }[];
}

/** The question set of the one runtime request the runner created. */
const createdSet = (result: DriverResult): unknown =>
  (firstEvent(result, "runtime_request.created").payload as { request: { input: unknown } }).request.input;

describe("Codex question forms against upstream's runner", { timeout: 120_000 }, () => {
  it("cuts long texts in characters and sends a text question's empty options, as upstream's", async () => {
    const frames: Frame[] = [
      form([
        {
          id: "long",
          header: "é".repeat(100),
          question: "q".repeat(5000),
          options: [{ label: "😀".repeat(300), description: "é".repeat(1200) }, ...options(63)],
        },
        { id: "t".repeat(160), header: "H", question: "Why?" },
        plain,
      ]),
      mark,
    ];
    const steps = (work: string): Step[] => [
      ...opened(work, frames),
      { op: "event", type: "item.started" },
      ...command("turn.interrupt", "stop"),
      { op: "event", type: "run.terminal" },
      ...closeSteps,
    ];
    const ours = await driveHeld(toolchain(), steps);
    const upstream = await driveHeld(toolchain(), steps, upstreamRunner());
    for (const result of [ours, upstream]) expect(result.failure).toBeNull();
    expectSameAnswers(ours, upstream);
    expect(createdSet(ours)).toEqual(createdSet(upstream));
    const [long, text, plainQuestion] = (createdSet(ours) as { questions: CreatedQuestion[] }).questions;
    expect([long?.header, long?.prompt, long?.options[0]?.label]).toEqual([
      "é".repeat(80),
      "q".repeat(4000),
      "😀".repeat(240),
    ]);
    expect(long?.options).toHaveLength(64);
    expect(text).toMatchObject({ answerMode: "text", options: [] });
    expect(plainQuestion?.id).toBe("q");
  });

  it.each([
    ["no question", [], "Codex user-input request must contain one to three questions"],
    [
      "four questions",
      ["a", "b", "c", "d"].map((id) => ({ ...plain, id })),
      "Codex user-input request must contain one to three questions",
    ],
    ["a question without an id", [{ header: "H", question: "Q?" }], "Codex question id is invalid"],
    ["an id of 161 characters", [{ ...plain, id: "i".repeat(161) }], "Codex question id is invalid"],
    ["65 options", [{ ...plain, options: options(65) }], "Codex question contains an invalid option"],
    [
      "an option without a label",
      [{ ...plain, options: [{ label: "" }] }],
      "Codex question contains an invalid option",
    ],
  ])(
    "%s: upstream's runner exits 1, ours fails the session in its words",
    async (_name, questions, reason) => {
      const upstream = await driveHeld(
        toolchain(),
        (work) => [...opened(work, [form(questions)]), { op: "exit" }],
        upstreamRunner(),
      );
      expect(upstream.exits).toEqual([{ phase: "final", code: 1, signal: null }]);
      expect(upstream.diagnostic).toContain(`Codex provider failed: ${reason}`);
      const ours = await driveHeld(toolchain(), (work) => [
        ...opened(work, [form(questions)]),
        { op: "event", type: "run.terminal" },
        ...closeSteps,
      ]);
      expectSessionFailedOnProtocol(ours, reason);
    },
  );
});
