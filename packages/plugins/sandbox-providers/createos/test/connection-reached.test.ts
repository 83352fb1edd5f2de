import { createServer } from "node:http";
import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { closedPort } from "./support/closed-port.js";
import { scriptedClient as client, GET_SANDBOX as get } from "./support/scripted-client.js";

// `details.reached: false` on ERR_CREATEOS_CONNECTION promises that CreateOS cannot have acted
// on the call (a resume's re-pause and a lost create rely on it). With retries, that holds only
// when no attempt connected: an earlier attempt that reached CreateOS (answered 503, say) may
// have been acted on even though the last one was refused.

describe("ERR_CREATEOS_CONNECTION's details.reached", () => {
  it("is false when no attempt connected", async () => {
    const error = await caught(
      client(`http://127.0.0.1:${await closedPort()}`, { maxAttempts: 2 }).json(get),
    );
    expect(error.code).toBe("ERR_CREATEOS_CONNECTION");
    expect(error.details).toEqual({ reached: false });
  });

  it("is not false when an earlier attempt reached CreateOS and a later one was refused", async () => {
    // Answers one 503, closing its connection, then stops listening: the retry is refused.
    const server = createServer((_req, res) => {
      res.writeHead(503, { connection: "close", "content-type": "application/json" });
      res.end(JSON.stringify({ status: "error", data: "busy" }));
      server.close();
    });
    onTestFinished(() => {
      server.close();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };

    const error = await caught(client(`http://127.0.0.1:${port}`, { maxAttempts: 2 }).json(get));
    expect(error.code).toBe("ERR_CREATEOS_CONNECTION");
    expect(error.details).not.toMatchObject({ reached: false });
  });
});
