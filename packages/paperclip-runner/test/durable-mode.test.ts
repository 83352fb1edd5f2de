import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, stat } from "node:fs/promises";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  refusedPortForTest,
  startOnFreePorts,
  tempDirForTest,
  writeSelfSignedCertificate,
} from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { BIN, runBin } from "./helpers/run-bin.js";

const TICKET = "bootstrap_00000000-0000-4000-8000-000000000001";

/** The argv the server's spawnRunner builds, with our own endpoint. */
function launcherArgs(
  endpoint: readonly string[],
  stateDir: string,
  extra: readonly string[] = [],
): string[] {
  return [
    ...endpoint,
    "--state-dir",
    stateDir,
    "--runner-id",
    "runner-1",
    "--environment-lease-id",
    "env-1",
    "--run-id",
    "run-1",
    "--session-id",
    "session-1",
    "--turn-id",
    "turn-1",
    "--item-id",
    "item-1",
    "--runner-version",
    "0.1.0",
    "--runner-digest",
    `sha256:${"0".repeat(64)}`,
    "--fake-harness",
    "/nonexistent/fake-harness",
    "--fake-harness-script",
    "/nonexistent/happy-path.json",
    "--max-outbox-bytes",
    "1048576",
    "--p0-reserve-bytes",
    "65536",
    "--reconnect-delay-ms",
    "50",
    ...extra,
  ];
}

const withTicket = { env: { ...process.env, PAPERCLIP_RUNNER_BOOTSTRAP_TICKET: TICKET } };

describe("durable mode of the paperclip-runnerd bin", { timeout: 30_000 }, () => {
  it("refuses to start without the bootstrap ticket (ERR_RUNNER_DURABLE_TICKET_MISSING)", async () => {
    const dir = tempDirForTest();
    const env = { ...process.env };
    delete env.PAPERCLIP_RUNNER_BOOTSTRAP_TICKET;
    const result = await runBin(launcherArgs(["--connect-url", "ws://127.0.0.1:1/x"], join(dir, "state")), {
      env,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("ERR_RUNNER_DURABLE_TICKET_MISSING");
  });

  it("refuses plain ws:// to a host that is not loopback", async () => {
    const dir = tempDirForTest();
    const result = await runBin(
      launcherArgs(["--connect-url", "ws://example.com/x"], join(dir, "state")),
      withTicket,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "invalid --connect-url: ws:// is only allowed to a loopback host; use wss://",
    );
  });

  it("stops after --reconnect-grace-ms without a server (ERR_RUNNER_DURABLE_RECONNECT_DEADLINE), its state kept, the ticket nowhere on disk", async () => {
    const dir = tempDirForTest();
    const stateDir = join(dir, "state");
    const port = await refusedPortForTest();
    const result = await runBin(
      launcherArgs(["--connect-url", `ws://127.0.0.1:${port}/connect`], stateDir, [
        "--reconnect-grace-ms",
        "300",
      ]),
      withTicket,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("ERR_RUNNER_DURABLE_RECONNECT_DEADLINE");
    expect(result.stderr).toContain("transport reconnect deadline elapsed; durable state is preserved");
    expect(result.stderr).not.toContain(TICKET);
    const state = JSON.parse(await readFile(join(stateDir, "runner-state.json"), "utf8"));
    expect(state).toMatchObject({
      schema: "paperclip.runner.durable.state.v1",
      runId: "run-1",
      turnId: "turn-1",
      lifecycle: "recoverable_failure",
      recoverableFailure:
        "ERR_RUNNER_DURABLE_RECONNECT_DEADLINE: transport reconnect deadline elapsed; durable state is preserved",
      outbox: [],
    });
    expect((await stat(join(stateDir, "runner-state.json"))).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(state)).not.toContain(TICKET);
  });

  it("closes a wss:// connection whose server cannot prove the ticket (ERR_RUNNER_DURABLE_SERVER_PROOF), trusting only --ca-bundle-path", async () => {
    const dir = tempDirForTest();
    const { key, cert } = writeSelfSignedCertificate(dir);
    const https = createHttpsServer({ key: await readFile(key), cert: await readFile(cert) });
    const wss = new WebSocketServer({ server: https });
    const hellos: unknown[] = [];
    wss.on("connection", (socket) => {
      socket.on("message", (data) => {
        const hello = JSON.parse(data.toString()) as { payload: Record<string, unknown> };
        hellos.push(hello);
        // An impostor: it echoes the hello but cannot compute the proof.
        socket.send(
          JSON.stringify({
            protocol: "paperclip.runner",
            version: 1,
            kind: "auth_challenge",
            payload: { ...hello.payload, serverNonce: "n", selectedVersion: 1, serverProof: "0".repeat(64) },
          }),
        );
      });
    });
    https.listen(0, "127.0.0.1");
    await once(https, "listening");
    try {
      const url = `wss://127.0.0.1:${(https.address() as AddressInfo).port}/connect`;
      const result = await runBin(
        launcherArgs(["--connect-url", url, "--ca-bundle-path", cert], join(dir, "state")),
        withTicket,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("ERR_RUNNER_DURABLE_SERVER_PROOF");
      expect(result.stderr).toContain("the server proof does not match this runner's credential");
      expect(hellos).toHaveLength(1);
      expect(hellos[0]).toMatchObject({
        kind: "auth_hello",
        payload: { runId: "run-1", runnerVersion: "0.1.0" },
      });
      expect(JSON.stringify(hellos[0])).not.toContain(TICKET);
    } finally {
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise((resolve) => https.close(resolve));
    }
  });

  it("in listen mode accepts the server's WebSocket on --listen-address/--listen-port/--listen-path and speaks first", async () => {
    // Should another process take the picked port before the runner binds it, the runner exits
    // with EADDRINUSE (in the error thrown below), and it is started again on a new port.
    const helloOnPort = async (port: number): Promise<Record<string, unknown>> => {
      const child = spawn(
        process.execPath,
        [
          BIN,
          ...launcherArgs(
            ["--listen-address", "127.0.0.1", "--listen-port", String(port), "--listen-path", "/runner/v1"],
            join(tempDirForTest(), "state"),
          ),
        ],
        { ...withTicket, stdio: ["ignore", "ignore", "pipe"] },
      );
      let settled = false;
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      try {
        return await new Promise<Record<string, unknown>>((resolve, reject) => {
          const attempt = (): void => {
            if (settled) return;
            const socket = new WebSocket(`ws://127.0.0.1:${port}/runner/v1`);
            socket.once("message", (data) => {
              socket.terminate();
              resolve(JSON.parse(data.toString()) as Record<string, unknown>);
            });
            // The runner may not listen yet: try again shortly.
            socket.once("error", () => setTimeout(attempt, 100));
          };
          attempt();
          child.once("close", () => reject(new Error(`the runner exited: ${stderr}`)));
        });
      } finally {
        settled = true;
        child.kill("SIGKILL");
        if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
      }
    };
    const hello = await startOnFreePorts("the runner in listen mode", ([port]) => helloOnPort(port));
    expect(hello).toMatchObject({
      protocol: "paperclip.runner",
      kind: "auth_hello",
      payload: { runId: "run-1" },
    });
  });
});
