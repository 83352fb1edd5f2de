import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Controller, IDS, tempDir, writeScript } from "./local-controller.js";

async function failure(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const controller = new Controller(args, env);
  const exit = await controller.exited;
  expect(exit.code).toBe(1);
  return controller.stderr;
}

// Real processes on a busy 2-core CI machine: far more than vitest\'s 5 s default.
describe("local mode's command line, as a launcher gets it wrong", { timeout: 60_000 }, () => {
  const dir = tempDir("options");
  const script = writeScript(dir, { steps: [{ ready: {} }] });

  it("requires the three identities and a harness", async () => {
    expect(
      await failure(["--session-id", "s", "--runner-id", "n", "--fake-harness", "--script", script]),
    ).toContain("missing required argument --run-id");
    expect(await failure([...IDS])).toContain("missing required argument --harness-command");
    expect(await failure([...IDS, "--fake-harness"])).toContain("missing required argument --script");
  });

  it("refuses contradictory or unusable harness flags, naming the flag and the reason", async () => {
    expect(
      await failure([...IDS, "--fake-harness", "--script", script, "--harness-command", "/bin/true"]),
    ).toContain("invalid --fake-harness: cannot be combined with --harness-command");
    expect(await failure([...IDS, "--fake-harness", "--script", `${dir}/missing.json`])).toContain(
      "invalid --script: cannot read the script (ENOENT)",
    );
    const broken = writeScript(dir, { steps: [{ teleport: 1 }] }, "broken.json");
    expect(await failure([...IDS, "--fake-harness", "--script", broken])).toContain(
      'invalid --script: steps[0]: unknown step "teleport"',
    );
    const notJson = `${dir}/not-json.json`;
    writeFileSync(notJson, "steps: []");
    expect(await failure([...IDS, "--fake-harness", "--script", notJson])).toContain(
      "invalid --script: the script is not JSON",
    );
    expect(await failure([...IDS, "--fake-harness", "--script", script, "--state-dir", ""])).toContain(
      "invalid --state-dir: must not be empty",
    );
  });

  it("checks the sandbox flags and the pass-through variable before starting anything", async () => {
    const harness = ["--fake-harness", "--script", script];
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
