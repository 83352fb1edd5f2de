/**
 * A command that fails ends every call it started before `execute` settles: a caller who then
 * starts the next command, or exits, races nothing of the one before (a stdin close still
 * retried against a server that is failing, with the command's lease).
 */
import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { execute } from "../src/execute/execute.js";
import { FAST_TUNING, testClient, useRunningSandbox } from "./support/emulator-fixture.js";

const sandbox = useRunningSandbox();

/** A `fetch` whose calls to `path`'s end never get an answer: they end only when aborted. */
function fetchHanging(ending: string, held: AbortSignal[]): typeof fetch {
  return (input, init) => {
    const signal = init?.signal;
    if (!new URL(String(input)).pathname.endsWith(ending) || !signal) return fetch(input, init);
    held.push(signal);
    return new Promise<Response>((_resolve, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  };
}

describe("a command whose output following fails", () => {
  it("has ended its stdin close by the time execute rejects", async () => {
    const closes: AbortSignal[] = [];
    const hanging = fetchHanging("/stdin/close", closes);
    const client = testClient(sandbox.emulator, {
      fetch: (input, init) =>
        new URL(String(input)).pathname.endsWith("/connect")
          ? Promise.resolve(new Response("not a frame\n", { status: 200 }))
          : hanging(input, init),
    });
    const error = await caught(
      execute(client, { sandboxId: sandbox.id, command: "/bin/sleep", args: ["30"] }, FAST_TUNING),
    );
    expect(error).toMatchObject({ code: "ERR_CREATEOS_OUTPUT_INVALID" });
    // One attempt, and it was stopped with the command rather than left to its 30 s deadline and retries.
    expect(closes).toHaveLength(1);
    expect(closes[0]!.aborted).toBe(true);
  });
});
