import { chmod, mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { RunnerError } from "@paperclipai/errors";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { MAX_LATER_FAILURES_PRINTED } from "../src/cli/runnerd-cli.js";
import { createRunnerdCli, type LocalModeRunner, VERSION } from "../src/index.js";
import { memoryIo } from "./helpers/memory-io.js";

const neverCalled: LocalModeRunner = async () => {
  throw new Error("local mode must not run");
};

async function diagnosticsDir(mode = 0o700): Promise<string> {
  const dir = join(tempDirForTest(), "diagnostics");
  await mkdir(dir);
  await chmod(dir, mode);
  return dir;
}

const readDiagnostic = (dir: string) => readFile(join(dir, "runnerd.stderr.log"), "utf8");

describe("createRunnerdCli", () => {
  it("--build-metadata prints one JSON line and exits 0", async () => {
    const io = memoryIo();
    expect(await createRunnerdCli(["--build-metadata"], io).run(neverCalled)).toBe(0);
    const lines = io.stdoutText().split("\n");
    expect(lines).toHaveLength(2);
    // Upstream's runner prints these fields in this order (e2e/runner-codex-oracle compares the two).
    expect(lines[0]).toBe(
      JSON.stringify({
        binaryContractVersion: 2,
        binaryName: "paperclip-runnerd",
        harnessDriverVersion: 1,
        nativeExecutionVersion: 1,
        packageName: "@paperclipai/paperclip-runner",
        packageVersion: VERSION,
        prp: { maximumVersion: 2, minimumVersion: 1, name: "paperclip.runner" },
        prpTransportModes: ["dial_ws_loopback", "dial_wss", "listen_ws"],
        schema: "paperclip-runner/runnerd-build-metadata/v1",
      }),
    );
    expect(io.stderrText()).toBe("");
  });

  it("--build-metadata with other arguments: invalid --build-metadata: must be the only argument", async () => {
    const dir = await diagnosticsDir();
    const io = memoryIo();
    const code = await createRunnerdCli(
      ["--build-metadata", "--run-id", "r", "--diagnostics-directory", dir],
      io,
    ).run(neverCalled);
    expect(code).toBe(1);
    expect(io.stdoutText()).toBe("");
    expect(io.stderrText()).toContain(
      "paperclip-runnerd: invalid --build-metadata: must be the only argument\n",
    );
    expect(await readDiagnostic(dir)).toContain("code: ERR_RUNNER_INVALID_ARGUMENT");
  });

  it("--build-metadata accepts --diagnostics-directory beside it", async () => {
    const io = memoryIo();
    const dir = await diagnosticsDir();
    expect(
      await createRunnerdCli(["--diagnostics-directory", dir, "--build-metadata"], io).run(neverCalled),
    ).toBe(0);
    expect(JSON.parse(io.stdoutText()).schema).toBe("paperclip-runner/runnerd-build-metadata/v1");
  });

  it("--help lists every flag", async () => {
    const io = memoryIo();
    expect(await createRunnerdCli(["--help"], io).run(neverCalled)).toBe(0);
    for (const flag of [
      "--diagnostics-directory DIR",
      "--run-id ID",
      "--harness-arg ARG",
      "--fake-harness",
      "--state-dir",
    ]) {
      expect(io.stdoutText()).toContain(flag);
    }
  });

  it("delegates to local mode with the parsed flags and its exit status", async () => {
    const io = memoryIo();
    let seen: string | undefined;
    const code = await createRunnerdCli(["--run-id", "run_1"], io).run(async (flags, received) => {
      seen = flags.required("--run-id");
      received.stdout.write("event\n");
      return 0;
    });
    expect(code).toBe(0);
    expect(seen).toBe("run_1");
    expect(io.stdoutText()).toBe("event\n");
  });

  it("a failure of local mode is printed and persisted, redacted, exit 1", async () => {
    const dir = await diagnosticsDir();
    const io = memoryIo();
    const code = await createRunnerdCli(["--diagnostics-directory", dir], io).run(async (flags) => {
      flags.required("--run-id");
      return 0;
    });
    expect(code).toBe(1);
    const diagnostic = await readDiagnostic(dir);
    expect(diagnostic).toBe(
      "paperclip-runnerd: missing required argument --run-id\ncode: ERR_RUNNER_MISSING_ARGUMENT\n" +
        'details: {"name":"--run-id"}\n',
    );
    expect(io.stderrText()).toBe(diagnostic);
  });

  it("a secret in the failure never reaches stderr or the file", async () => {
    const dir = await diagnosticsDir();
    const io = memoryIo();
    const code = await createRunnerdCli(["--diagnostics-directory", dir], io).run(async () => {
      throw new Error(
        "harness said: Invalid API key: sk-proj-provider-secret; token=ghp_abcdefghijklmnopqrstuvwx",
      );
    });
    expect(code).toBe(1);
    const diagnostic = await readDiagnostic(dir);
    expect(diagnostic.split("\n")[0]).toBe(
      "paperclip-runnerd: harness said: Invalid API key: [REDACTED]; token=[REDACTED]",
    );
    expect(diagnostic).toContain("stack:\n  at ");
    for (const text of [diagnostic, io.stderrText()]) {
      expect(text).not.toContain("provider-secret");
      expect(text).not.toContain("ghp_");
    }
  });

  it("keeps the cause chain of a coded error", async () => {
    const dir = await diagnosticsDir();
    const io = memoryIo();
    await createRunnerdCli(["--diagnostics-directory", dir], io).run(async () => {
      throw new RunnerError("ERR_RUNNER_INVALID_ARGUMENT", "invalid --script: the script is not JSON", {
        cause: new SyntaxError("Unexpected end of JSON input"),
        details: { name: "--script", reason: "the script is not JSON" },
      });
    });
    expect(await readDiagnostic(dir)).toContain("caused by: Unexpected end of JSON input\n");
  });

  it("reads --diagnostics-directory before a malformed flag, and reports missing value for <name>", async () => {
    const dir = await diagnosticsDir();
    const io = memoryIo();
    const code = await createRunnerdCli(
      ["--diagnostics-directory", dir, "--run-id", "r", "--script"],
      io,
    ).run(neverCalled);
    expect(code).toBe(1);
    expect(await readDiagnostic(dir)).toMatch(
      /^paperclip-runnerd: missing value for --script\ncode: ERR_RUNNER_MISSING_VALUE\n/,
    );
  });

  it("a --diagnostics-directory without a value fails without persisting", async () => {
    const io = memoryIo();
    expect(await createRunnerdCli(["--run-id", "r", "--diagnostics-directory"], io).run(neverCalled)).toBe(1);
    expect(io.stderrText()).toMatch(/^paperclip-runnerd: missing value for --diagnostics-directory\n/);
  });

  it("reports unknown flags by name on stderr and in the diagnostic, never their values", async () => {
    const dir = await diagnosticsDir();
    const io = memoryIo();
    const code = await createRunnerdCli(
      [
        "--frobnicate",
        "hunter2value",
        "--api-key=sk-proj-0123456789abcdef",
        "--diagnostics-directory",
        dir,
        "loose",
      ],
      io,
    ).run(async () => {
      throw new Error("stop");
    });
    expect(code).toBe(1);
    const stderr = io.stderrText();
    expect(stderr).toContain(
      "paperclip-runnerd: ignored unknown flags: --frobnicate, --api-key=[REDACTED]\n",
    );
    expect(stderr).toContain("paperclip-runnerd: ignored stray arguments: 1\n");
    const diagnostic = await readDiagnostic(dir);
    expect(diagnostic).toContain("ignored unknown flags: --frobnicate, --api-key=[REDACTED]");
    for (const text of [stderr, diagnostic]) {
      expect(text).not.toContain("hunter2value");
      expect(text).not.toContain("0123456789abcdef");
      expect(text).not.toContain("loose");
    }
  });

  it("unknown flags are reported but do not fail a successful run", async () => {
    const io = memoryIo();
    expect(await createRunnerdCli(["--future-flag", "x"], io).run(async () => 0)).toBe(0);
    expect(io.stderrText()).toBe("paperclip-runnerd: ignored unknown flags: --future-flag\n");
  });

  it("when persisting fails, stderr gets the original failure and the persist failure", async () => {
    const dir = await diagnosticsDir(0o755);
    const io = memoryIo();
    const code = await createRunnerdCli(["--diagnostics-directory", dir], io).run(async () => {
      throw new Error("the original failure, password=swordfish1");
    });
    expect(code).toBe(1);
    const stderr = io.stderrText();
    expect(stderr).toMatch(/^paperclip-runnerd: the original failure, password=\[REDACTED\]\n/);
    expect(stderr).toContain(
      "paperclip-runnerd: could not persist the runner diagnostic: runner diagnostics directory is accessible by group or other users [ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS]\n",
    );
    expect(stderr.indexOf("original failure")).toBeLessThan(stderr.indexOf("could not persist"));
    expect(stderr).not.toContain("swordfish1");
    expect(await readdir(dir)).toEqual([]);
  });

  it("fatal() persists an uncaught exception and an unhandled rejection; a second one goes to stderr only", async () => {
    const dir = await diagnosticsDir();
    const io = memoryIo();
    const cli = createRunnerdCli(["--diagnostics-directory", dir], io);
    const first = cli.fatal(
      "uncaught exception",
      new TypeError("Cannot read properties of undefined (reading 'x')"),
    );
    const second = cli.fatal("unhandled rejection", "Bearer abcdefghijklmnop");
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    const diagnostic = await readDiagnostic(dir);
    expect(diagnostic).toMatch(/^paperclip-runnerd: uncaught exception: Cannot read properties of undefined/);
    expect(diagnostic).not.toContain("unhandled rejection");
    expect(io.stderrText()).toContain("paperclip-runnerd: unhandled rejection: Bearer [REDACTED]\n");
  });
});

describe("failures after the first", () => {
  it("are printed a bounded number of times, so a report that fails again cannot loop", async () => {
    const io = memoryIo();
    const cli = createRunnerdCli([], io);
    const first = cli.fatal("uncaught exception", new Error("first failure"));
    for (let index = 0; index < 50; index += 1)
      void cli.fatal("uncaught exception", new Error(`later ${index}`));
    expect(await first).toBe(1);
    expect(await cli.settled(0)).toBe(1);
    const reports = io
      .stderrText()
      .split("\n")
      .filter((line) => line.startsWith("paperclip-runnerd: "));
    expect(reports[0]).toBe("paperclip-runnerd: uncaught exception: first failure");
    expect(reports.filter((line) => line.includes("later "))).toHaveLength(MAX_LATER_FAILURES_PRINTED);
  });
});
