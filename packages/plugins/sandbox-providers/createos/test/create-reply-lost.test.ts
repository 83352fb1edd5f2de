import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { closedPort } from "./support/closed-port.js";
import { useTestEmulator } from "./support/emulator-fixture.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// A sandbox create is never retried (no idempotency key) and CreateOS has no listing to find a
// sandbox by: one whose reply is lost runs on unnamed. The plugin cannot delete it; it must at
// least tell the host's log, as it does for a create cut at shutdown.

const fixture = useTestEmulator();

const WARNING =
  "A CreateOS sandbox create failed without an answer that rules out a sandbox; CreateOS may have made one whose id is unknown. Look for it in CreateOS and delete it.";

describe("a sandbox create whose reply is lost", () => {
  it.each([
    ["the connection is cut", {}],
    ["a 502 answers it", { status: 502 }],
  ])("is told to the host's log when %s", async (_case, lost) => {
    const t = await pluginUnderTest(fixture.emulator);
    const before = fixture.emulator.sandboxes().length;
    fixture.emulator.faults.add({ kind: "lose-create-reply", route: "sandbox.create", ...lost });

    await caught(t.harness.acquireLease({ ...t.base, runId: "lost-create" }));

    expect(fixture.emulator.sandboxes().length).toBe(before + 1);
    expect(t.harness.logs.filter((entry) => entry.level === "warn").map((entry) => entry.message)).toEqual([
      WARNING,
    ]);
  });

  it("is not, when CreateOS refused the create", async () => {
    const t = await pluginUnderTest(fixture.emulator, { shape: "s-no-such-shape" });
    const error = await caught(t.harness.acquireLease({ ...t.base, runId: "refused-create" }));
    expect(error.code).toBe("ERR_CREATEOS_HTTP_STATUS");
    expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
  });

  it("is not, when the connection to CreateOS was refused (it never reached CreateOS)", async () => {
    const unreachable = { url: `http://127.0.0.1:${await closedPort()}`, apiKey: fixture.emulator.apiKey };
    const t = await pluginUnderTest(unreachable);
    const error = await caught(t.harness.acquireLease({ ...t.base, runId: "refused-connection" }));
    expect(error.code).toBe("ERR_CREATEOS_CONNECTION");
    expect(t.harness.logs.filter((entry) => entry.level === "warn")).toEqual([]);
  });
});
