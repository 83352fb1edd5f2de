// The `limits` scenario of the Codex driver: large inputs, and many calls in one response. The
// server's control plane seals each command in a frame of base64 (its non-ASCII characters
// escaped as `\uXXXX` first) that both runners read up to 1 MiB, so upstream's own 1 MiB bound
// on turn and steer text is out of the server's reach; a larger command is lost for both runners
// (docs/compatibility.md). Here: turn texts of 100 000 ASCII bytes and of 100 000 bytes of 3-byte
// characters, a steer of 100 000 bytes, and ten calls in one response. Written for this
// repository.

import { printModelToolOutputs } from "./edge-scenario.mjs";

/** Inputs of about 100 000 UTF-8 bytes, by step name. */
export const LARGE_TEXTS = {
  "ascii-text": `ascii ${"a".repeat(100_000)} end`,
  "multibyte-text": `euro ${"€".repeat(33_333)} end`,
};
export const LARGE_STEER = `steer ${"s".repeat(100_000)} end`;

/** The bodies of the ten calls of one response. */
export const TEN_CALLS = Array.from({ length: 10 }, (_, index) => `report ${index + 1} of 10`);

/** `h` is the driver's session (oracle-session.mjs). */
export async function runLimitsScenario(h) {
  for (const [name, text] of Object.entries(LARGE_TEXTS)) {
    await h.attempt(name, async () => {
      await h.runTurn(name, text, [{ text: `read ${name}` }]);
      h.mark(`${name}:told`, { reachedModel: h.lastRequestText().includes(text.slice(-2_000)) });
    });
  }
  await h.attempt("large-steer", async () => {
    const before = h.stub.requests.length;
    await h.runTurn(
      "large-steer",
      "wait for a long steer",
      [{ text: "held for the steer", gate: "long-steer" }, { text: "after the long steer" }],
      async (turnId) => {
        await h.until(() => h.stub.requests.length > before, "the turn's model request");
        await h.request("turn/steer", {
          expectedTurnId: turnId,
          input: [{ type: "text", text: LARGE_STEER }],
        });
        h.mark("large-steer:sent");
        h.stub.open("long-steer");
      },
    );
    h.mark("large-steer:told", { reachedModel: h.lastRequestText().includes(LARGE_STEER.slice(-2_000)) });
  });
  await h.attempt("ten-calls", () =>
    h.runTurn(
      "ten-calls",
      "report ten times",
      [
        { tools: TEN_CALLS.map((body) => ({ tool: "report_progress", arguments: { body } })) },
        { text: "ten reported" },
      ],
      undefined,
      // Upstream's runner takes most of a second over each call.
      60_000,
    ),
  );
  printModelToolOutputs(h);
}
