import type { IncomingMessage, ServerResponse } from "node:http";
import { PaperclipError } from "@paperclipai/errors";
import type { EmulatorState } from "../emulator-state.js";
import { validateFaultPlan } from "../fault-book.js";

/** The control plane's prefix: outside `/v1`, never rate limited, faulted or recorded. */
export const CONTROL_PREFIX = "/_emulator/";

// As a sandbox delete through the API: processes get a short grace period.
const BEHIND_CLIENT_GRACE_MS = 200;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function readText(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Lets a separate process (a demo script, a tester driving a Paperclip instance) steer an
 * emulator started with the bin: `GET state`, `PUT faults` (a FaultPlan), `DELETE faults`,
 * `GET faults` (what fired), `DELETE sandboxes/{id}` (`?forget=1`: then unknown, 404), a
 * delete behind the plugin's back. The caller has already presented the API key.
 */
export async function handleControl(
  state: EmulatorState,
  method: string,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const name = path.slice(CONTROL_PREFIX.length);
  if (name === "state" && method === "GET") {
    return send(res, 200, {
      sandboxes: state.sandboxSnapshots(),
      processes: state.processSnapshots(),
      requests: state.records,
    });
  }
  if (name === "faults" && method === "GET") return send(res, 200, { fired: state.faults.fired() });
  if (name === "faults" && method === "DELETE") {
    state.faults.clear();
    return send(res, 200, {});
  }
  if (name === "faults" && method === "PUT") {
    const text = await readText(req, 1024 * 1024);
    if (text === undefined) return send(res, 413, { error: "The fault plan is too large." });
    try {
      state.faults.set(validateFaultPlan(JSON.parse(text) as unknown));
    } catch (error) {
      const message = PaperclipError.is(error) ? error.message : "The fault plan is not valid JSON.";
      return send(res, 400, { error: message });
    }
    return send(res, 200, {});
  }
  const sandbox = /^sandboxes\/([A-Za-z0-9_-]{1,200})$/.exec(name);
  if (sandbox && method === "DELETE") {
    req.resume();
    const forget = new URL(req.url ?? "", "http://emulator").searchParams.get("forget") === "1";
    const deleted = await state.deleteBehindClient(sandbox[1] ?? "", forget, BEHIND_CLIENT_GRACE_MS);
    return send(res, deleted ? 200 : 404, deleted ? {} : { error: "No such sandbox." });
  }
  req.resume();
  send(res, 404, { error: "No such control route." });
}
