import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreateosEmulator, startCreateosEmulator } from "../src/index.js";
import { RawApi } from "./support/raw-api.js";

let emulator: CreateosEmulator;
let api: RawApi;

beforeAll(async () => {
  emulator = await startCreateosEmulator({ rateLimitPerMinute: 60, rateLimitBurst: 2, transitionMs: 0 });
  api = new RawApi(emulator);
});

afterAll(async () => {
  await emulator?.close();
});

async function control(method: string, name: string, body?: string, key = emulator.apiKey) {
  const init: RequestInit = { method, headers: { "x-api-key": key } };
  if (body !== undefined) init.body = body;
  const response = await fetch(`${emulator.url}/_emulator/${name}`, init);
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

describe("emulator control plane (/_emulator/)", () => {
  it("requires the API key", async () => {
    expect((await control("GET", "state", undefined, "wrong")).status).toBe(401);
  });

  it("arms, reports and clears faults from another process's point of view", async () => {
    const plan = {
      faults: [{ kind: "http-status", route: "sandbox.get", status: 503, retryAfterSeconds: 2 }],
    };
    expect((await control("PUT", "faults", JSON.stringify(plan))).status).toBe(200);
    const faulted = await api.call("GET", "/sandboxes/none");
    expect([faulted.status, faulted.headers.get("retry-after")]).toEqual([503, "2"]);
    expect((await control("GET", "faults")).json).toEqual({
      fired: [{ kind: "http-status", route: "sandbox.get", rule: 0, sandboxId: "none" }],
    });
    expect((await control("DELETE", "faults")).status).toBe(200);
    expect((await control("GET", "faults")).json).toEqual({ fired: [] });
  });

  it("is never rate limited, faulted or recorded, and reports the state", async () => {
    emulator.faults.set({ faults: [{ kind: "http-status", route: "*", status: 500, times: "always" }] });
    const before = emulator.requests().length;
    for (let index = 0; index < 5; index += 1) expect((await control("GET", "state")).status).toBe(200);
    expect(emulator.requests()).toHaveLength(before);
    const state = (await control("GET", "state")).json;
    expect(Object.keys(state ?? {})).toEqual(["sandboxes", "processes", "requests"]);
    emulator.faults.clear();
  });

  it("rejects invalid plans with the coded message and unknown control routes with 404", async () => {
    const bad = await control("PUT", "faults", JSON.stringify({ faults: [{ kind: "explode" }] }));
    expect(bad.status).toBe(400);
    expect(String(bad.json?.error)).toMatch(/^Invalid CreateOS emulator fault plan: /);
    expect((await control("PUT", "faults", "{nope")).status).toBe(400);
    expect((await control("POST", "reboot")).status).toBe(404);
  });
});
