// Start modes of the fake app-server (`--fake-mode MODE`) that break the protocol while the runner
// opens its session: each takes the runner's `initialize` or `thread/start` request and answers it
// the hostile way (true: the fake's own handler is skipped). The fake's other modes live in it.
import { spawn } from "node:child_process";
import { closeSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const line = (message) => `${JSON.stringify(message)}\n`;
/** Writes raw bytes and runs `then` once the kernel took them (a plain exit could drop them). */
const write = (bytes, then = () => undefined) => process.stdout.write(bytes, then);

const onInitialize = {
  // A JSON-RPC error answer, carrying a credential-shaped text the runner must not repeat.
  "initialize-error": (id) =>
    write(line({ id, error: { code: -32603, message: "login failed for sk_live_abcdefghijklmnop" } })),
  // Half of an answer, no newline, then the end.
  "partial-exit": (id) => write(`{"id":${id},"result":{"userAgent":"fa`, () => process.exit(0)),
  // An answer whose string holds bytes that are not UTF-8.
  "invalid-utf8": (id) =>
    write(
      Buffer.concat([
        Buffer.from(`{"id":${id},"result":{"userAgent":"fake-`),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(`"}}\n`),
      ]),
    ),
  // An answer nested deeper than upstream's JSON parser accepts (serde_json's 128 levels).
  "deep-nesting": (id) =>
    write(`{"id":${id},"result":{"deep":${"[".repeat(100_000)}${"]".repeat(100_000)}}}\n`),
  // An answer to a request the runner never sent.
  "unknown-answer": (id) => write(line({ id: id + 1000, result: {} })),
  // The same answer twice.
  "duplicate-answer": (id) => {
    const answer = line({ id, result: { userAgent: "fake-codex/0.0.0" } });
    write(answer + answer);
  },
  // 24 MiB of notifications ahead of the answer: more than upstream's 16 MiB of buffered messages.
  "buffer-flood": () => {
    const warning = line({ method: "warning", params: { message: "w".repeat(3 * 1024 * 1024) } });
    for (let index = 0; index < 8; index += 1) write(warning);
    return false;
  },
  // Its stdout closed, the process runs on and shrugs off SIGTERM: only SIGKILL ends it.
  "closed-stdout": () => {
    process.on("SIGTERM", () => undefined);
    closeSync(1);
    setInterval(() => undefined, 1000);
  },
  // A provider that works but shrugs off SIGTERM: a close must escalate to SIGKILL.
  "ignore-sigterm": () => {
    process.on("SIGTERM", () => undefined);
    return false;
  },
  // A grandchild in the provider's group keeps the pipes open and would outlive the provider.
  grandchild: () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => undefined, 1000)"], {
      stdio: "inherit",
    });
    writeFileSync(join(process.env.CODEX_HOME, "grandchild.pid"), String(child.pid));
    process.exit(3);
  },
};

const onThreadStart = {
  "thread-start-error": (id) =>
    write(line({ id, error: { code: -32000, message: "thread refused for sk_live_abcdefghijklmnop" } })),
  "thread-id-number": (id) => write(line({ id, result: { thread: { id: 42 } } })),
};

/** Answers `message` the hostile way for `mode`; false when the fake answers it itself. */
export function hostileStart(mode, message) {
  const table =
    message.method === "initialize" ? onInitialize : message.method === "thread/start" ? onThreadStart : {};
  const handle = table[mode];
  if (handle === undefined) return false;
  return handle(message.id) !== false;
}
