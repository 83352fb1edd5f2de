import { onTestFinished } from "vitest";
import { CreateosClient } from "../../src/client/createos-client.js";
import { type Handler, startScriptedServer } from "./scripted-server.js";

/** The API key every client of a scripted server sends (and no error may quote). */
export const API_KEY = "test-key-123";

// Pacing and backoff short enough for retries to take milliseconds.
const FAST = {
  rateLimit: { burst: 1_000, refillPerMinute: 600_000 },
  backoff: { baseMs: 5, capMs: 20, maxRetryAfterMs: 1_200 },
};

/** A scripted server closed when the test finishes, passed or failed. */
export async function scriptedServerForTest(handler: Handler) {
  const server = await startScriptedServer(handler);
  onTestFinished(server.close);
  return server;
}

/** A client of the scripted server at `url`, with fast pacing. */
export function scriptedClient(
  url: string,
  extra: Partial<ConstructorParameters<typeof CreateosClient>[0]> = {},
): CreateosClient {
  return new CreateosClient({ apiUrl: `${url}/v1`, apiKey: API_KEY, ...FAST, ...extra });
}

/** An idempotent `GET /sandboxes/sbx_1`. */
export const GET_SANDBOX = {
  method: "GET",
  path: "/sandboxes/sbx_1",
  operation: "sandbox lifecycle",
  idempotent: true,
} as const;
