import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { childForTest, tempDirForFile } from "@paperclipai/test-support";
import { beforeAll, describe, expect, it } from "vitest";
import { isAlive } from "./support/raw-api.js";

const BIN = fileURLToPath(new URL("../bin/createos-emulator.js", import.meta.url));
const DIST = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const root = tempDirForFile("emulator-cli-");

beforeAll(() => {
  if (!existsSync(DIST)) throw new Error("dist/cli.js is missing: build the package first (turbo does).");
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = childForTest(() =>
      spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] }),
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => {
      lines.close();
      resolve(line);
    });
    child.once("exit", () => reject(new Error("the emulator exited before printing")));
  });
}

describe("createos-emulator bin", () => {
  it("prints usage with --help and the version with --version", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: createos-emulator [options]");
    expect(help.stdout).toContain("--port N");
    const version = await run(["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("exits 1 with the coded error for bad arguments or a bad fault plan", async () => {
    const bad = await run(["--port", "nope"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("[ERR_CREATEOS_EMULATOR_OPTIONS]");
    const planFile = join(root, "bad-plan.json");
    writeFileSync(planFile, JSON.stringify({ faults: [{ kind: "explode" }] }));
    const plan = await run(["--faults", planFile]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("[ERR_CREATEOS_EMULATOR_FAULT_PLAN]");
  });

  it("serves the API with the printed key and faults, and cleans up on SIGTERM", async () => {
    const workspaceRoot = join(root, "ws");
    const planFile = join(root, "plan.json");
    writeFileSync(
      planFile,
      JSON.stringify({ faults: [{ kind: "http-status", route: "sandbox.get", status: 503 }] }),
    );
    const child = childForTest(() =>
      spawn(
        process.execPath,
        [
          BIN,
          "--port",
          "0",
          "--json",
          "--rate-limit",
          "off",
          "--workspace-root",
          workspaceRoot,
          "--faults",
          planFile,
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      ),
    );
    const { url, apiKey } = JSON.parse(await firstLine(child)) as { url: string; apiKey: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const headers = { "x-api-key": apiKey, "content-type": "application/json" };
    const created = await fetch(`${url}/v1/sandboxes`, {
      method: "POST",
      headers,
      body: JSON.stringify({ shape: "s-1vcpu-1gb" }),
    });
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    expect((await fetch(`${url}/v1/sandboxes/${id}`, { headers })).status).toBe(503);
    for (;;) {
      const read = (await (await fetch(`${url}/v1/sandboxes/${id}`, { headers })).json()) as {
        data: { status: string };
      };
      if (read.data.status === "running") break;
    }
    const started = await fetch(`${url}/v1/sandboxes/${id}/processes`, {
      method: "POST",
      headers,
      body: JSON.stringify({ cmd: "/bin/bash", args: ["-c", "echo $$; exec sleep 300"] }),
    });
    const pid = ((await started.json()) as { data: { process_id: string } }).data.process_id;
    const connect = await fetch(`${url}/v1/sandboxes/${id}/processes/${pid}/connect?after=0`, { headers });
    const reader = connect.body!.getReader();
    const first = JSON.parse(new TextDecoder().decode((await reader.read()).value).split("\n")[0] ?? "") as {
      data_base64: string;
    };
    const osPid = Number(Buffer.from(first.data_base64, "base64").toString().trim());
    expect(isAlive(osPid)).toBe(true);
    await reader.cancel();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(isAlive(osPid)).toBe(false);
    expect(readdirSync(workspaceRoot)).toEqual([]);
  });
});
