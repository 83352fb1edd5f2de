// The `tools` scenario of the Codex driver: Codex's own tools beyond the server's dynamic one.
// MCP tools of a stdio server in Codex's config (`mcp-probe-server.mjs`): a plain answer, one
// over the runner's 64 KiB output bound with a secret and control characters in it, one that
// reports progress first, one Codex refuses (it asks for an approval the `never` policy denies),
// one the server does not have; `view_image`; an `apply_patch` through Codex's shell tool (a
// `fileChange` item); then model responses with rate-limit headers, with another model's name
// (Codex warns of a reroute) and cut by `max_output_tokens` after their first deltas, and a turn
// after them. Written for this repository.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { printModelToolOutputs } from "./edge-scenario.mjs";

/** A 1×1 PNG the model asks Codex to look at. */
const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The MCP tools the model calls, by step name: the probe server's tool and its arguments. */
export const MCP_STEPS = {
  "mcp-echo": ["echo", { text: "hello mcp" }],
  "mcp-big": ["big", {}],
  "mcp-slow": ["slow", {}],
  "mcp-refused": ["fail", {}],
  "mcp-missing": ["missing", {}],
};

/** Codex's rate-limit headers on a model response (its primary and secondary windows). */
const RATE_LIMIT_HEADERS = {
  "x-codex-primary-used-percent": "42.5",
  "x-codex-primary-window-minutes": "300",
  "x-codex-primary-reset-at": "1900000000",
  "x-codex-secondary-used-percent": "7",
  "x-codex-secondary-window-minutes": "10080",
  "x-codex-secondary-reset-at": "1900500000",
};

const PATCH = "*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n";

/** `h` is the driver's session (oracle-session.mjs). */
export async function runToolsScenario(h) {
  for (const [name, [tool, args]] of Object.entries(MCP_STEPS)) {
    await h.attempt(name, () =>
      h.runTurn(name, `call ${tool}`, [
        { tools: [{ tool, namespace: "mcp__probe", arguments: args }] },
        { text: `after ${name}` },
      ]),
    );
  }
  writeFileSync(join(h.workspace, "pixel.png"), PIXEL_PNG);
  await h.attempt("view-image", () =>
    h.runTurn("view-image", "look at the pixel", [
      { tool: "view_image", arguments: { path: join(h.workspace, "pixel.png") } },
      { text: "seen" },
    ]),
  );
  await h.attempt("shell-patch", () =>
    h.runTurn("shell-patch", "add a file", [
      { tool: "exec_command", arguments: { cmd: `apply_patch <<'EOF'\n${PATCH}EOF\n` } },
      { text: "patched" },
    ]),
  );
  await h.attempt("rate-limited-headers", () =>
    h.runTurn("rate-limited-headers", "answer", [{ text: "limited", headers: RATE_LIMIT_HEADERS }]),
  );
  await h.attempt("rerouted", () =>
    h.runTurn("rerouted", "answer", [{ text: "rerouted", headers: { "openai-model": "gpt-other" } }]),
  );
  await h.attempt("cut-by-max-tokens", () =>
    h.runTurn("cut-by-max-tokens", "answer at length", [
      { text: "partial answer", deltas: ["partial ", "answer"], incompleteAfterDeltas: "max_output_tokens" },
    ]),
  );
  await h.attempt("after-tools", () => h.runTurn("after-tools", "still there?", [{ text: "still here" }]));
  printModelToolOutputs(h);
}
