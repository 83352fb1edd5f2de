/**
 * Tenth pass (docs/adapter-utils/security.md): a pipe on the CLI's stdin was passed to the
 * program as it was, and `open("/proc/self/fd/0", O_WRONLY)` opens that pipe again for
 * writing (a pipe's inode is its creator's, the runner's uid). What the program wrote there
 * was read by whatever reads the caller's stdin after the run: under `curl … | bash`, a
 * `bash <<EOF` here-document or `ssh host bash -s`, the shell's next commands, which it ran
 * on the host, outside the sandbox.
 */
import { existsSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll } from "./sandbox-support.js";
import { CLI_SCOPE_FLAGS, cliRunAs } from "./scope-matrix.js";

afterEach(cleanupAll);

describe("a pipe on the CLI's stdin, shared with the caller's later readers", () => {
  it.each(["root", "nobody"] as const)(
    "takes no command a program run as %s writes into it back to the shell that reads its script there",
    async (runAs) => {
      const { base, cli, shell } = await cliRunAs(runAs, "pc-stdin-pipe-", 0o777);
      for (const [name, flags] of Object.entries(CLI_SCOPE_FLAGS)) {
        const marker = path.join(base, `${name}.escaped`);
        const script = path.join(base, `${name}.sh`);
        await writeFile(
          script,
          [
            // Input piped to the program still reaches it.
            `printf 'hello\\n' | ${cli(flags, 'read line; echo "got $line"')}`,
            // The script's own pipe, the program's stdin: a command written into it for the shell.
            cli(flags, `echo "touch ${marker}" > /proc/self/fd/0; echo "reopened=$?"`),
            "",
          ].join("\n"),
        );
        await chmod(script, 0o644);
        // The shell reads its script from a pipe made by the runner's uid, as `curl … | bash` does.
        const run = await shell(`cat ${shellQuote(script)} | bash`);
        expect(run.stdout, `${name}: ${run.stderr}`).toContain("got hello\n");
        expect(existsSync(marker), `${name}: ${run.stdout} ${run.stderr}`).toBe(false);
      }
    },
    120_000,
  );
});
