// A tiny stdio MCP server (newline-delimited JSON-RPC 2.0) that Codex starts from its config in
// the `tools` scenario, so the model can call MCP tools offline: `node mcp-probe-server.mjs serve`.
// Written for this repository.
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** What `big` answers: over the runner's 64 KiB output bound, a secret and control characters in it. */
export const BIG_MCP_OUTPUT = `big start ghp_${"A1b2C3d4".repeat(5)}\u0000\u001b[31m ${"x".repeat(120_000)} big end`;

const EMPTY_INPUT = { type: "object", properties: {} };
// `fail` is not read-only: Codex asks to approve its call, which the `never` policy refuses.
const TOOLS = [
  {
    name: "echo",
    description: "Echoes its text.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    annotations: { readOnlyHint: true },
  },
  {
    name: "big",
    description: "Answers a long text.",
    inputSchema: EMPTY_INPUT,
    annotations: { readOnlyHint: true },
  },
  {
    name: "slow",
    description: "Reports progress, then answers.",
    inputSchema: EMPTY_INPUT,
    annotations: { readOnlyHint: true },
  },
  {
    name: "fail",
    description: "Always fails.",
    inputSchema: EMPTY_INPUT,
    annotations: { readOnlyHint: false },
  },
];

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const text = (value, extra = {}) => ({ content: [{ type: "text", text: value }], ...extra });

function callTool({ name, arguments: args, _meta: meta }) {
  switch (name) {
    case "echo":
      return text(`echo: ${args?.text ?? ""}`, { structuredContent: { echoed: args?.text ?? "" } });
    case "big":
      return text(BIG_MCP_OUTPUT);
    case "slow": {
      // Progress notifications before the answer, when Codex gave a progress token.
      const token = meta?.progressToken;
      for (const [progress, message] of token === undefined
        ? []
        : [
            [1, "half way"],
            [2, "done"],
          ]) {
        send({
          method: "notifications/progress",
          params: { progressToken: token, progress, total: 2, message },
        });
      }
      return text(`slow done (progress token ${token === undefined ? "absent" : "given"})`);
    }
    default:
      return text("the probe tool failed on purpose", { isError: true });
  }
}

function handle(message) {
  switch (message.method) {
    case "initialize":
      return {
        protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "probe", version: "1.0.0" },
      };
    case "tools/list":
      return { tools: TOOLS };
    case "tools/call":
      return callTool(message.params ?? {});
    case "ping":
      return {};
    default:
      return undefined;
  }
}

/** The `-c` overrides that give Codex this server as `probe`, run by this Node. */
export function probeMcpServerArgs() {
  return [
    "-c",
    `mcp_servers.probe.command=${JSON.stringify(process.execPath)}`,
    "-c",
    `mcp_servers.probe.args=${JSON.stringify([fileURLToPath(import.meta.url), "serve"])}`,
  ];
}

if (process.argv[2] === "serve") {
  createInterface({ input: process.stdin }).on("line", (line) => {
    if (line.trim() === "") return;
    const message = JSON.parse(line);
    if (message.id === undefined) return; // a notification (notifications/initialized, say)
    const result = handle(message);
    send(
      result === undefined
        ? { id: message.id, error: { code: -32601, message: "method not found" } }
        : { id: message.id, result },
    );
  });
}
