import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { isAlive, RawApi } from "./support/raw-api.js";
import { emulatorForTest, startFailure } from "./support/teardown.js";

describe("emulator: close() leaves nothing behind", () => {
  it("kills every process tree, ends open streams and waits, removes the directories, closes the port", async () => {
    const root = tempDirForTest("emulator-cleanup-");
    const emulator = await emulatorForTest({
      workspaceRoot: root,
      rateLimitPerMinute: null,
      heartbeatMs: 50,
    });
    const api = new RawApi(emulator);
    const sandboxes = [await api.runningSandbox(), await api.runningSandbox()];
    const processIds: string[] = [];
    for (const sandbox of sandboxes) {
      processIds.push(await api.process(sandbox, "sleep 300 & trap '' TERM; while :; do sleep 0.05; done"));
    }
    const stream = api.connect(sandboxes[0] ?? "", processIds[0] ?? "", 0, { deadlineMs: 20_000 }).then(
      (read) => read.ending,
      () => "error" as const,
    );
    const waiting = api
      .call("GET", `/sandboxes/${sandboxes[1]}/processes/${processIds[1]}/wait?timeout_ms=20000`)
      .then(
        () => "answered",
        () => "broken",
      );
    await expect
      .poll(
        () =>
          emulator.requests().some((record) => record.route === "process.connect" && record.status === 200) &&
          emulator.requests().some((record) => record.route === "process.wait"),
        { message: "stream and wait in flight", timeout: 15_000 },
      )
      .toBe(true);
    const osPids = emulator.processes().map((process) => process.osPid);
    expect(osPids.every(isAlive)).toBe(true);
    expect(readdirSync(root)).toHaveLength(1);

    await emulator.close();

    expect(osPids.some(isAlive)).toBe(false);
    expect(emulator.processes().every((process) => !process.treeAlive && process.killedTree)).toBe(true);
    expect(readdirSync(root)).toEqual([]);
    expect(await stream).toBe("error");
    expect(await waiting).toBe("broken");
    await expect(fetch(`${emulator.url}/v1/sandboxes/x`)).rejects.toThrow();
    await emulator.close();
  });

  it("leaves nothing behind when requests that create sandboxes and processes race with close()", async () => {
    const root = tempDirForTest("emulator-cleanup-");
    const emulator = await emulatorForTest({
      workspaceRoot: root,
      rateLimitPerMinute: null,
      transitionMs: 0,
    });
    const api = new RawApi(emulator);
    const sandbox = await api.runningSandbox();
    const racing = Array.from({ length: 10 }, (_, index) =>
      index % 2 === 0
        ? api.call("POST", "/sandboxes", { shape: "s-1vcpu-1gb" })
        : api.call("POST", `/sandboxes/${sandbox}/processes`, { cmd: "/bin/sleep", args: ["300"] }),
    ).map((call) =>
      call.then(
        (reply) => reply.status,
        () => 0,
      ),
    );
    await emulator.close();
    await Promise.all(racing);
    expect(readdirSync(root)).toEqual([]);
    for (const process of emulator.processes()) expect(isAlive(process.osPid)).toBe(false);
  });

  it("removes its own temporary root when no workspaceRoot is given", async () => {
    const emulator = await emulatorForTest({ rateLimitPerMinute: null });
    const api = new RawApi(emulator);
    const sandbox = await api.runningSandbox();
    const dir = emulator.sandboxes().find((item) => item.id === sandbox)?.workspaceDir ?? "";
    expect(existsSync(dir)).toBe(true);
    await emulator.close();
    expect(existsSync(join(dir, "..", ".."))).toBe(false);
  });
});

describe("emulator: start failures", () => {
  it("throws ERR_CREATEOS_EMULATOR_LISTEN when the port is taken, and removes what it created", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    const root = tempDirForTest("emulator-cleanup-");
    try {
      const caught = await startFailure({ port, workspaceRoot: root });
      expect(PaperclipError.is(caught, "ERR_CREATEOS_EMULATOR_LISTEN")).toBe(true);
      expect((caught as Error).message).toBe(`The CreateOS emulator could not listen on 127.0.0.1:${port}.`);
      expect((caught as PaperclipError).details).toMatchObject({ code: "EADDRINUSE", port });
      expect(readdirSync(root)).toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it("throws ERR_CREATEOS_EMULATOR_OPTIONS before binding anything", async () => {
    expect(await startFailure({ host: "192.0.2.1" })).toMatchObject({
      code: "ERR_CREATEOS_EMULATOR_OPTIONS",
      details: { option: "host" },
    });
  });

  it("throws ERR_CREATEOS_EMULATOR_OPTIONS when the workspace root cannot be created", async () => {
    const root = tempDirForTest("emulator-cleanup-");
    writeFileSync(join(root, "a-file"), "");
    expect(await startFailure({ workspaceRoot: join(root, "a-file", "below") })).toMatchObject({
      code: "ERR_CREATEOS_EMULATOR_OPTIONS",
      message: "Invalid CreateOS emulator options: workspaceRoot cannot hold sandbox directories (ENOTDIR).",
      details: { option: "workspaceRoot" },
    });
  });

  it("throws ERR_CREATEOS_EMULATOR_BWRAP when bubblewrap cannot run", async () => {
    expect(await startFailure({ isolation: "bwrap", bwrapPath: "/nonexistent/bwrap" })).toMatchObject({
      code: "ERR_CREATEOS_EMULATOR_BWRAP",
      message: "The CreateOS emulator cannot confine processes with bubblewrap.",
      details: { spawnError: "ENOENT" },
    });
  });
});
