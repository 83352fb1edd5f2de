import diagnostics from "node:diagnostics_channel";
import type { ClientRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { execute } from "../src/execute/execute.js";
import { FAST_TUNING, useRunningSandbox } from "./support/emulator-fixture.js";

const sandbox = useRunningSandbox();

/** The order in which the client's requests went out and their answers (headers) came in. */
function recordExchanges(): { readonly events: string[]; stop(): void } {
  const events: string[] = [];
  const sent = (message: unknown) =>
    events.push(`sent ${(message as { request: ClientRequest }).request.path}`);
  const answered = (message: unknown) =>
    events.push(`answered ${(message as { request: ClientRequest }).request.path}`);
  diagnostics.subscribe("http.client.request.start", sent);
  diagnostics.subscribe("http.client.response.finish", answered);
  return {
    events,
    stop() {
      diagnostics.unsubscribe("http.client.request.start", sent);
      diagnostics.unsubscribe("http.client.response.finish", answered);
    },
  };
}

/** Round trips one after another: a request sent once every earlier one is answered starts a new one. */
function sequentialRoundTrips(events: readonly string[]): number {
  let trips = 0;
  let open = 0;
  let answeredSinceLastTrip = true;
  for (const event of events) {
    if (event.startsWith("sent")) {
      if (open === 0 && answeredSinceLastTrip) trips += 1;
      open += 1;
      answeredSinceLastTrip = false;
    } else {
      open -= 1;
      answeredSinceLastTrip = true;
    }
  }
  return trips;
}

const run = () =>
  execute(sandbox.client, { sandboxId: sandbox.id, command: "/bin/echo", args: ["hi"] }, FAST_TUNING);

describe("the HTTP calls of one command", () => {
  it("are four requests in two round trips: the create, then stdin close, connect and wait together", async () => {
    await run();
    for (let command = 0; command < 3; command += 1) {
      const before = sandbox.emulator.requests().length;
      const exchanges = recordExchanges();
      const result = await run().finally(() => exchanges.stop());
      expect(result).toMatchObject({ exitCode: 0, stdout: "hi\n" });
      const routes = sandbox.emulator
        .requests()
        .slice(before)
        .map((record) => record.route);
      expect(routes[0]).toBe("process.create");
      expect(routes.slice(1).sort()).toEqual(["process.connect", "process.stdinClose", "process.wait"]);
      expect(sequentialRoundTrips(exchanges.events)).toBe(2);
    }
  });

  it("ride on kept-alive connections: after the first command, no command opens a new one", async () => {
    await run();
    const opened = Math.max(...sandbox.emulator.requests().map((record) => record.connection));
    const before = sandbox.emulator.requests().length;
    for (let command = 0; command < 5; command += 1) await run();
    const records = sandbox.emulator.requests().slice(before);
    expect(records).toHaveLength(20);
    expect(records.every((record) => record.connection <= opened)).toBe(true);
  });
});
