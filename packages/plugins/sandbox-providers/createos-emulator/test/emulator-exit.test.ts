import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { childForTest, killGroupAfterTest, removeAfterTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { isAlive } from "./support/raw-api.js";

const SCRIPT = fileURLToPath(new URL("./support/exit-without-close.ts", import.meta.url));

describe("emulator: a process that exits without close()", () => {
  it("still kills its process trees and removes its directories", async () => {
    const child = childForTest(() =>
      spawn(process.execPath, ["--import", "tsx", SCRIPT], { stdio: ["ignore", "pipe", "inherit"] }),
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    const { osPid, workspaceDir } = JSON.parse(out) as { osPid: number; workspaceDir: string };
    // Should the exit hook fail, the test still leaves neither the process group nor the root behind.
    killGroupAfterTest(osPid);
    removeAfterTest(join(workspaceDir, "..", ".."));
    expect(osPid).toBeGreaterThan(0);
    await expect
      .poll(() => !isAlive(osPid), { message: "the process tree to die", timeout: 15_000 })
      .toBe(true);
    expect(existsSync(workspaceDir)).toBe(false);
  });
});
