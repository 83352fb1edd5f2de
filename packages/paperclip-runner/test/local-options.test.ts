import { writeFileSync } from "node:fs";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { Controller, IDS, writeScript } from "./local-controller.js";

async function failure(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const controller = new Controller(args, env);
  const exit = await controller.exited;
  expect(exit.code).toBe(1);
  return controller.stderr;
}

function fixture(): { dir: string; script: string; harness: string[] } {
  const dir = tempDirForTest("runner-options-");
  const script = writeScript(dir, { steps: [{ ready: {} }] });
  return { dir, script, harness: ["--fake-harness", "builtin", "--script", script] };
}

// Real processes on a busy 2-core CI machine: far more than vitest's 5 s default.
describe("local mode's command line, as a launcher gets it wrong", { timeout: 60_000 }, () => {
  it("requires the three identities and a harness, and bounds the identities as upstream's schema does", async () => {
    const { harness } = fixture();
    expect(await failure(["--session-id", "s", "--runner-id", "n", ...harness])).toContain(
      "missing required argument --run-id",
    );
    expect(await failure([...IDS])).toContain("missing required argument --harness-command");
    expect(await failure([...IDS, "--fake-harness", "builtin"])).toContain(
      "missing required argument --script",
    );
    expect(await failure([...IDS, "--fake-harness", "--script", "x.json"])).toContain(
      "missing value for --fake-harness",
    );
    expect(
      await failure(["--run-id", "r".repeat(161), "--session-id", "s", "--runner-id", "n", ...harness]),
    ).toContain("invalid --run-id: must be at most 160 characters");
  });

  it("refuses contradictory or unusable harness flags, naming the flag and the reason", async () => {
    const { dir, script, harness } = fixture();
    expect(await failure([...IDS, ...harness, "--harness-command", "/bin/true"])).toContain(
      "invalid --fake-harness: cannot be combined with --harness-command",
    );
    expect(await failure([...IDS, "--fake-harness", "x", "--script", `${dir}/missing.json`])).toContain(
      "invalid --script: cannot read the script (ENOENT)",
    );
    const broken = writeScript(dir, { steps: [{ teleport: 1 }] }, "broken.json");
    expect(await failure([...IDS, "--fake-harness", "x", "--script", broken])).toContain(
      'invalid --script: steps[0]: unknown step "teleport"',
    );
    const foreign = writeScript(
      dir,
      { schema: "paperclip.fake_harness.script.v2", name: "x", steps: [] },
      "v2.json",
    );
    expect(await failure([...IDS, "--fake-harness", "x", "--script", foreign])).toContain(
      "invalid --script: fake harness script schema is unsupported",
    );
    const nameless = writeScript(
      dir,
      { schema: "paperclip.fake_harness.script.v1", name: " ", steps: [] },
      "v1.json",
    );
    expect(await failure([...IDS, "--fake-harness", "x", "--script", nameless])).toContain(
      "invalid --script: fake harness script requires a name of at most 160 bytes and at least one step",
    );
    const notJson = `${dir}/not-json.json`;
    writeFileSync(notJson, "steps: []");
    expect(await failure([...IDS, "--fake-harness", "x", "--script", notJson])).toContain(
      "invalid --script: the script is not JSON",
    );
    expect(await failure([...IDS, "--fake-harness", "x", "--script", script, "--state-dir", ""])).toContain(
      "invalid --state-dir: must not be empty",
    );
  });

  it("reads upstream's numeric flags as non-negative integers", async () => {
    const { harness } = fixture();
    for (const flag of [
      "--delay-ms",
      "--log-max-lines",
      "--log-max-bytes",
      "--shutdown-grace-ms",
      "--command-history-limit",
      "--controller-max-line-bytes",
      "--harness-max-line-bytes",
    ]) {
      expect(await failure([...IDS, ...harness, flag, "-1"])).toContain(
        `invalid ${flag}: must be a non-negative integer`,
      );
    }
  });

  it("checks the sandbox flags and the pass-through variable before starting anything", async () => {
    const { dir, harness } = fixture();
    expect(await failure([...IDS, ...harness, "--sandbox-allow", "api.example.com"])).toContain(
      "invalid --sandbox-allow: requires --sandbox-workspace",
    );
    expect(await failure([...IDS, ...harness, "--sandbox-workspace", "relative/dir"])).toContain(
      "invalid --sandbox-workspace: must be an absolute path",
    );
    expect(await failure([...IDS, ...harness, "--sandbox-workspace", `${dir}/nope`])).toContain(
      "invalid --sandbox-workspace: must be an existing directory",
    );
    expect(
      await failure([...IDS, ...harness], {
        ...process.env,
        PAPERCLIP_RUNNER_HARNESS_ENV: "OPENAI_API_KEY,not a name",
      }),
    ).toContain(
      "invalid PAPERCLIP_RUNNER_HARNESS_ENV: must be a comma-separated list of environment variable names",
    );
  });
});
