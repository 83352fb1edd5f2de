import { chown, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll } from "./sandbox-support.js";
import { CLI_SCOPE_FLAGS, cliRunAs } from "./scope-matrix.js";

afterEach(cleanupAll);

/**
 * Copies its input to its output as asked, then reopens both through `/proc/self/fd`:
 * stdin for writing (it was opened read-only) and stdout for reading (write-only, appending).
 */
const PROGRAM = `cat; echo pwned >> /proc/self/fd/0; sed s/^/leaked:/ /proc/self/fd/1`;

describe("the caller's stdio, when the CLI is given files", () => {
  it.each(["root", "nobody"] as const)(
    "lets a program run as %s neither write its input file nor read its output file, in every scope",
    async (runAs) => {
      const { base, uid, cli, shell } = await cliRunAs(runAs, "pc-stdio-", 0o755);
      for (const [name, flags] of Object.entries(CLI_SCOPE_FLAGS)) {
        // Host files outside the workspace, each the runner's own: modes would allow both.
        const input = path.join(base, `${name}.in`);
        const log = path.join(base, `${name}.log`);
        await writeFile(input, "input\n");
        await writeFile(log, "secret\n");
        await chown(input, uid, uid);
        await chown(log, uid, uid);
        const run = await shell(`${cli(flags, PROGRAM)} < ${shellQuote(input)} >> ${shellQuote(log)}`);
        // The program's output arrived; the host files hold nothing it took or wrote through /proc.
        expect(await readFile(input, "utf8"), `${name}: ${run.stderr}`).toBe("input\n");
        expect(await readFile(log, "utf8"), `${name}: ${run.stderr}`).toBe("secret\ninput\n");
      }
    },
    120_000,
  );
});
