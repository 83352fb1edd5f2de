import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreateosEmulator, startCreateosEmulator } from "../src/index.js";
import { isAlive, RawApi } from "./support/raw-api.js";

let emulator: CreateosEmulator;
let api: RawApi;

beforeAll(async () => {
  emulator = await startCreateosEmulator({ rateLimitPerMinute: null, transitionMs: 0 });
  api = new RawApi(emulator);
});

afterAll(async () => {
  await emulator?.close();
});

describe("emulator: the shape catalog", () => {
  it("creates only shapes of CreateOS's published catalog", async () => {
    for (const shape of ["s-0.25vcpu-512mb", "s-1vcpu-256mb", "s-8vcpu-16gb"]) {
      expect((await api.call("POST", "/sandboxes", { shape })).status).toBe(200);
    }
    for (const shape of ["small", "", "s-1vcpu-256MB"]) {
      const refused = await api.call("POST", "/sandboxes", { shape });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ status: "error" });
    }
  });

  it("takes another catalog, or any shape with null", async () => {
    const own = await startCreateosEmulator({ rateLimitPerMinute: null, shapes: ["tiny"] });
    const any = await startCreateosEmulator({ rateLimitPerMinute: null, shapes: null });
    try {
      expect((await new RawApi(own).call("POST", "/sandboxes", { shape: "tiny" })).status).toBe(200);
      expect((await new RawApi(own).call("POST", "/sandboxes", { shape: "s-1vcpu-1gb" })).status).toBe(400);
      expect((await new RawApi(any).call("POST", "/sandboxes", { shape: "anything" })).status).toBe(200);
    } finally {
      await own.close();
      await any.close();
    }
  });
});

describe("emulator: a sandbox deleted behind its client's back", () => {
  it("kills its processes and then reads destroyed, or 404 when forgotten", async () => {
    const kept = await api.runningSandbox();
    const processId = await api.process(kept, "sleep 30");
    const pid = emulator.processes().find((p) => p.id === processId)?.osPid ?? 0;
    expect(isAlive(pid)).toBe(true);
    expect(await emulator.deleteSandbox(kept)).toBe(true);
    await expect
      .poll(() => !isAlive(pid), { message: "the process tree dies with its sandbox", timeout: 15_000 })
      .toBe(true);
    expect((await api.call("GET", `/sandboxes/${kept}`)).json).toMatchObject({
      data: { status: "destroyed" },
    });
    const forgotten = await api.runningSandbox();
    expect(await emulator.deleteSandbox(forgotten, { forget: true })).toBe(true);
    expect((await api.call("GET", `/sandboxes/${forgotten}`)).status).toBe(404);
    expect(await emulator.deleteSandbox("sbx_unknown")).toBe(false);
  });

  it("is reachable through the control plane, for a separate process", async () => {
    const id = await api.runningSandbox();
    const remove = (query: string) =>
      fetch(`${emulator.url}/_emulator/sandboxes/${id}${query}`, {
        method: "DELETE",
        headers: { "x-api-key": emulator.apiKey },
      });
    expect((await remove("?forget=1")).status).toBe(200);
    expect((await api.call("GET", `/sandboxes/${id}`)).status).toBe(404);
    expect((await remove("")).status).toBe(404);
  });
});
