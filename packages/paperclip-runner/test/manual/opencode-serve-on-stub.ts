// By hand, without the runner or the proxy: the real `opencode serve` answering one message
// from the loopback chat-completions stub, launched as the server's proxy launches it (its own
// HOME and XDG dirs, an allowlisted environment, the server's basic auth) through the wrapper
// the tests put in the launch profile. Prints OpenCode's answer and what the stub was asked.
//
//   npx tsx packages/paperclip-runner/test/manual/opencode-serve-on-stub.ts
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { startChatCompletionsStub } from "@paperclipai/test-support/chat-completions-stub";
import {
  realOpencodeBinary,
  STUB_MODEL,
  writeOpencodeOnStub,
} from "@paperclipai/test-support/opencode-on-stub";

const ANSWER = "hello from the stub";
const AUTH = `Basic ${Buffer.from("opencode:by-hand").toString("base64")}`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function call(base: string, route: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${base}${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: AUTH, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000),
  });
  if (!response.ok) throw new Error(`${route}: HTTP ${response.status} ${await response.text()}`);
  return await response.json();
}

async function healthy(base: string, child: ChildProcess): Promise<unknown> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`opencode serve exited with ${child.exitCode}`);
    try {
      return await call(base, "/global/health");
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error("opencode serve never answered /global/health");
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGTERM");
  // As the proxy's close: two seconds for SIGTERM, then SIGKILL.
  const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, "SIGKILL"), 2_000);
  await exited;
  clearTimeout(timer);
}

const work = await mkdtemp(path.join(os.tmpdir(), "opencode by hand-"));
// The agent's request offers tools; OpenCode's session-title request, beside it, offers none.
const stub = await startChatCompletionsStub(
  [{ when: (body) => (body.tools?.length ?? 0) > 0, text: ANSWER }],
  "Stub title",
);
let child: ChildProcess | undefined;
try {
  const executable = await writeOpencodeOnStub(
    work,
    realOpencodeBinary("the OpenCode manual check"),
    stub.baseUrl,
  );
  const [providerId, modelId] = STUB_MODEL.split("/") as [string, string];
  const home = path.join(work, "home");
  await mkdir(path.join(home, "config", "opencode"), { recursive: true });
  await mkdir(path.join(work, "workspace"));
  // What the proxy writes: the model, and a provider entry naming it alone.
  await writeFile(
    path.join(home, "config", "opencode", "opencode.json"),
    JSON.stringify({
      model: STUB_MODEL,
      small_model: STUB_MODEL,
      share: "disabled",
      plugin: [],
      provider: { [providerId]: { models: { [modelId]: { name: modelId } } } },
    }),
  );
  const port = await freePort();
  child = spawn(executable, ["serve", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: path.join(work, "workspace"),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, "config"),
      XDG_DATA_HOME: path.join(home, "data"),
      XDG_CACHE_HOME: path.join(home, "cache"),
      OPENCODE_DISABLE_PROJECT_CONFIG: "true",
      OPENCODE_SERVER_USERNAME: "opencode",
      OPENCODE_SERVER_PASSWORD: "by-hand",
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  console.log("health:", JSON.stringify(await healthy(base, child)));
  const session = (await call(base, "/session", {})) as { id: string };
  const message = (await call(base, `/session/${session.id}/message`, {
    model: { providerID: providerId, modelID: modelId },
    parts: [{ type: "text", text: "hello" }],
  })) as { parts: { type: string; text?: string }[] };
  console.log(
    "answer:",
    JSON.stringify(message.parts.filter((part) => part.type === "text").map((part) => part.text)),
  );
  for (const request of stub.requests)
    console.log(
      "stub asked:",
      JSON.stringify({
        tools: request.tools?.map((tool) => tool.function.name) ?? [],
        messages: request.messages?.length,
      }),
    );
} finally {
  if (child !== undefined) await stop(child);
  await stub.close();
  await rm(work, { recursive: true, force: true });
}
