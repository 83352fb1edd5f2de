import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

interface Validation {
  readonly ok: boolean;
  readonly issues: readonly { readonly path: string; readonly message: string }[];
}

interface ReplayContract {
  validatePrpEvent(value: unknown): Validation;
}

const TOOLCHAIN_SCRIPT = fileURLToPath(
  new URL("../../../../scripts/lib/toolchain-cache.sh", import.meta.url),
);

/**
 * Upstream's own validators (`protocol/replay-contract.js` of the pinned
 * `@paperclipai/server`, from the repository's toolchain cache, installed there
 * on first use). They are plain JavaScript that also runs on this Node.
 */
const serverDir = execFileSync("bash", [TOOLCHAIN_SCRIPT, "server"], {
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
}).trim();
const contract = (await import(
  pathToFileURL(
    `${serverDir}/node_modules/@paperclipai/server/dist/vendor/paperclip-runner/protocol/replay-contract.js`,
  ).href
)) as ReplayContract;

const MESSAGE_KINDS = ["event", "command_receipt", "diagnostic"];

/**
 * Why one stdout line of the runner is not what upstream's controller accepts,
 * or null: a `paperclip.runner.stream.v1` envelope whose message is an event
 * upstream's validator passes, a command receipt, or a diagnostic.
 */
export function upstreamStreamLineProblem(line: string): string | null {
  let envelope: { schema?: unknown; message?: Record<string, unknown> };
  try {
    envelope = JSON.parse(line) as typeof envelope;
  } catch {
    return "not JSON";
  }
  if (envelope.schema !== "paperclip.runner.stream.v1") return "not a paperclip.runner.stream.v1 envelope";
  const message = envelope.message;
  if (message === undefined || !MESSAGE_KINDS.includes(message.kind as string)) return "unknown message kind";
  if (message.kind === "event") {
    const validation = contract.validatePrpEvent(message.event);
    return validation.ok
      ? null
      : validation.issues.map((issue) => `${issue.path} ${issue.message}`).join("; ");
  }
  if (message.kind === "command_receipt") {
    const ok =
      typeof message.commandId === "string" &&
      typeof message.controllerSeq === "number" &&
      ["accepted", "duplicate", "rejected"].includes(message.status as string) &&
      typeof message.detail === "string";
    return ok ? null : "malformed command_receipt";
  }
  return typeof message.level === "string" && typeof message.message === "string"
    ? null
    : "malformed diagnostic";
}
