import { chmod, chown, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import {
  bindRepoView,
  cleanupAll,
  inPrivateMountNamespace,
  packageDir,
  viaRepoView,
} from "./sandbox-support.js";
import { CLI_SCOPE_FLAGS, nodeForNobody } from "./scope-matrix.js";

afterEach(cleanupAll);

const bin = path.join(packageDir, "bin", "paperclip-sandbox.js");

/**
 * Copies its input to its output as asked, then reopens both through `/proc/self/fd`:
 * stdin for writing (it was opened read-only) and stdout for reading (write-only, appending).
 */
const PROGRAM = `cat; echo pwned >> /proc/self/fd/0; sed s/^/leaked:/ /proc/self/fd/1`;

describe("the caller's stdio, when the CLI is given files", () => {
  it.each(["root", "nobody"] as const)(
    "lets a program run as %s neither write its input file nor read its output file, in every scope",
    async (runAs) => {
      const base = tempDirForTest("pc-stdio-", { base: "/var/tmp" });
      const ws = path.join(base, "ws");
      await mkdir(ws);
      await chmod(base, 0o755);
      const owner = runAs === "root" ? 0 : 65534;
      const nobodys = nodeForNobody(base);
      await chown(ws, owner, owner);
      for (const [name, flags] of Object.entries(CLI_SCOPE_FLAGS)) {
        // Host files outside the workspace, each the runner's own: modes would allow both.
        const input = path.join(base, `${name}.in`);
        const log = path.join(base, `${name}.log`);
        await writeFile(input, "input\n");
        await writeFile(log, "secret\n");
        await chown(input, owner, owner);
        await chown(log, owner, owner);
        const cli = [
          runAs === "root" ? process.execPath : nobodys.node,
          viaRepoView(bin),
          ...flags,
          "--workspace",
          ws,
          "--",
          "sh",
          "-c",
          PROGRAM,
        ];
        const command = `${cli.map(shellQuote).join(" ")} < ${shellQuote(input)} >> ${shellQuote(log)}`;
        const asUser =
          runAs === "root" ? "" : `${nobodys.mount} && setpriv --reuid=65534 --regid=65534 --clear-groups `;
        const run = await inPrivateMountNamespace(
          `${bindRepoView} && ${asUser}sh -c ${shellQuote(command)}`,
          {
            PATH: process.env.PATH,
            HOME: ws,
          },
        );
        // The program's output arrived; the host files hold nothing it took or wrote through /proc.
        expect(await readFile(input, "utf8"), `${name}: ${run.stderr}`).toBe("input\n");
        expect(await readFile(log, "utf8"), `${name}: ${run.stderr}`).toBe("secret\ninput\n");
      }
    },
    120_000,
  );
});
