/**
 * A command whose name holds `=`, run with a per-command env that needs `env` (a name bash gives a
 * meaning to, such as `LANG`): `env` reads every leading word with `=` as one more assignment, so
 * the command's name would become a variable and the first argument the command, or, without
 * arguments, `env` would print the whole environment (the command's secrets included) to the
 * run log and exit 0. Without such a name, bash's own `exec` runs the same command as a name.
 */

import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { execute } from "../src/execute/execute.js";
import { FAST_TUNING, liveLog, useRunningSandbox } from "./support/emulator-fixture.js";

const sandbox = useRunningSandbox();

const SECRET = "s3cret-value-never-printed";

describe("a command whose name holds =", () => {
  it.each([
    ["alone", []],
    ["with arguments that would become the command", ["/bin/echo", "ran the argument"]],
  ])("is refused before any request when env must set the names (%s)", async (_name, args) => {
    const log = liveLog();
    const before = sandbox.emulator.requests().length;
    const error = await caught(
      execute(
        sandbox.client,
        {
          sandboxId: sandbox.id,
          command: "TOKEN=x",
          args,
          env: { LANG: "C", API_TOKEN: SECRET },
          onLog: log.onLog,
        },
        FAST_TUNING,
      ),
    );
    expect(error.code).toBe("ERR_CREATEOS_COMMAND_ASSIGNMENT");
    expect(JSON.stringify(error)).not.toContain(SECRET);
    expect(log.text("stdout") + log.text("stderr")).toBe("");
    expect(sandbox.emulator.requests().length).toBe(before);
  });

  it("is looked up as a name by bash's exec when no name needs env: not found, 127", async () => {
    const result = await execute(
      sandbox.client,
      { sandboxId: sandbox.id, command: "TOKEN=x", env: { API_TOKEN: SECRET } },
      FAST_TUNING,
    );
    expect(result.exitCode).toBe(127);
    expect(result.stdout).toBe("");
    expect(result.stderr).not.toContain(SECRET);
  });
});
