import type { IncomingMessage } from "node:http";
import type { EmulatorAddress } from "./plugin-harness.js";

/** Headers not forwarded: the proxy's own connection sets them. */
const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

/** An emulator's answer to a forwarded call, read whole. */
export interface ForwardedAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

/** Sends a plain JSON call a test proxy received on to the emulator, with its headers and body. */
export async function forwardToEmulator(
  target: EmulatorAddress,
  req: IncomingMessage,
  body: string,
): Promise<ForwardedAnswer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string" && !HOP_HEADERS.has(name)) headers[name] = value;
  }
  const answer = await fetch(`${target.url}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    ...(body === "" ? {} : { body }),
  });
  return {
    status: answer.status,
    contentType: answer.headers.get("content-type") ?? "text/plain",
    text: await answer.text(),
  };
}
