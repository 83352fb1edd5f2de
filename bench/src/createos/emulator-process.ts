import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import type { CreateosClient } from "@paperclipai/plugin-createos/client";

export interface EmulatorProcess {
  readonly url: string;
  readonly apiKey: string;
  readonly child: ChildProcess;
}

/** The emulator in its own process (its bin), so the figures are the plugin's, not the server's. */
export async function startEmulator(): Promise<EmulatorProcess> {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve("@paperclipai/createos-emulator/package.json"));
  const child = spawn(
    process.execPath,
    [
      join(root, "bin/createos-emulator.js"),
      "--port",
      "0",
      "--json",
      "--rate-limit",
      "off",
      "--journal-bytes",
      String(256 * 1024 * 1024),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout! });
  const [first] = (await once(lines, "line")) as [string];
  lines.close();
  const { url, apiKey } = JSON.parse(first) as { url: string; apiKey: string };
  return { url, apiKey, child };
}

export async function createSandbox(client: CreateosClient): Promise<string> {
  const created = await client.json({
    method: "POST",
    path: "/sandboxes",
    json: { shape: "s-1vcpu-1gb", ingress_enabled: false },
    operation: "sandbox lifecycle",
    idempotent: false,
  });
  const id = String(created.data?.id);
  for (;;) {
    const state = await client.json({
      method: "GET",
      path: `/sandboxes/${id}`,
      operation: "sandbox lifecycle",
      idempotent: true,
    });
    if (state.data?.status === "running") return id;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function stopEmulator(emulator: EmulatorProcess): Promise<void> {
  emulator.child.kill("SIGTERM");
  await once(emulator.child, "exit");
}
