// The `limits` scenario of the Codex driver: large inputs, and many calls in one response. The
// server's control plane journals a command of up to 1 MiB − 4 KiB of JSON but sends it sealed in
// hex, twice as long, and upstream's runner reads a frame of 1 MiB at most: a command over about
// 512 KiB never reaches it (docs/compatibility.md). Here, for both runners: turn texts of 100 000
// ASCII bytes and of 100 000 bytes of 3-byte characters, a steer of 100 000 bytes, and ten calls
// in one response; `large-commands`, for ours alone, the same at a million bytes. Written for
// this repository.

import { printModelToolOutputs } from "./edge-scenario.mjs";

/** Inputs of about `bytes` UTF-8 bytes, by step name, and a steer of as many. */
const largeTexts = (bytes) => ({
  texts: {
    "ascii-text": `ascii ${"a".repeat(bytes)} end`,
    "multibyte-text": `euro ${"€".repeat(Math.floor(bytes / 3))} end`,
  },
  steer: `steer ${"s".repeat(bytes)} end`,
});
export const LARGE_TEXTS = largeTexts(100_000).texts;
/** Within the server's bound on a command's JSON (1 MiB − 4 KiB), over upstream's runner's frame. */
export const HUGE = largeTexts(1_000_000);

/** The bodies of the ten calls of one response. */
export const TEN_CALLS = Array.from({ length: 10 }, (_, index) => `report ${index + 1} of 10`);

/** `h` is the driver's session (oracle-session.mjs); `huge`: the million-byte inputs, no calls. */
export async function runLimitsScenario(h, huge) {
  const { texts, steer } = huge ? HUGE : largeTexts(100_000);
  for (const [name, text] of Object.entries(texts)) {
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
          input: [{ type: "text", text: steer }],
        });
        h.mark("large-steer:sent");
        h.stub.open("long-steer");
      },
    );
    h.mark("large-steer:told", { reachedModel: h.lastRequestText().includes(steer.slice(-2_000)) });
  });
  if (huge) return;
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
