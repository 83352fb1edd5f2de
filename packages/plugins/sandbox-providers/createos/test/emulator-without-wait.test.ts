/**
 * Real processes on the emulator with its `wait` route answering 404 for good, as an API
 * without it would (upstream's plugin never calls it): the exit frame completes the output.
 */
import { expect, it } from "vitest";
import { execute } from "../src/execute/execute.js";
import { FAST_TUNING, liveLog, useRunningSandbox } from "./support/emulator-fixture.js";

const sandbox = useRunningSandbox({
  faults: { faults: [{ kind: "http-status", route: "process.wait", status: 404, times: "always" }] },
});

it("a command's whole output and exit code arrive without wait, which is asked once", async () => {
  const log = liveLog();
  const lines = Array.from({ length: 200 }, (_, i) => `line ${i} é🙂`).join("\n");
  const result = await execute(
    sandbox.client,
    {
      sandboxId: sandbox.id,
      command: "/bin/bash",
      args: ["-c", `printf '%s\\n' "$1"; printf 'err\\n' >&2; exit 5`, "bash", lines],
      onLog: log.onLog,
    },
    FAST_TUNING,
  );
  expect(result).toMatchObject({ exitCode: 5, timedOut: false, stdout: `${lines}\n`, stderr: "err\n" });
  expect(log.text("stdout")).toBe(result.stdout);
  const waits = sandbox.emulator.requests().filter((request) => request.route === "process.wait");
  expect(waits).toHaveLength(1);
  expect(waits[0]?.status).toBe(404);
});
