import { describe, expect, it } from "vitest";
import { matchRoute } from "./routes.js";

describe("matchRoute", () => {
  it.each([
    ["POST", "/v1/sandboxes", { route: "sandbox.create" }],
    ["GET", "/v1/sandboxes/sbx_1", { route: "sandbox.get", sandboxId: "sbx_1" }],
    ["DELETE", "/v1/sandboxes/sbx_1", { route: "sandbox.delete", sandboxId: "sbx_1" }],
    ["POST", "/v1/sandboxes/a-b/pause", { route: "sandbox.pause", sandboxId: "a-b" }],
    ["POST", "/v1/sandboxes/a/resume", { route: "sandbox.resume", sandboxId: "a" }],
    ["POST", "/v1/sandboxes/a/exec", { route: "sandbox.exec", sandboxId: "a" }],
    ["PUT", "/v1/sandboxes/a/files", { route: "files.put", sandboxId: "a" }],
    ["GET", "/v1/sandboxes/a/files", { route: "files.get", sandboxId: "a" }],
    ["POST", "/v1/sandboxes/a/processes", { route: "process.create", sandboxId: "a" }],
    [
      "POST",
      "/v1/sandboxes/a/processes/p/stdin/close",
      { route: "process.stdinClose", sandboxId: "a", processId: "p" },
    ],
    [
      "GET",
      "/v1/sandboxes/a/processes/p/connect",
      { route: "process.connect", sandboxId: "a", processId: "p" },
    ],
    ["GET", "/v1/sandboxes/a/processes/p/wait", { route: "process.wait", sandboxId: "a", processId: "p" }],
    ["DELETE", "/v1/sandboxes/a/processes/p", { route: "process.kill", sandboxId: "a", processId: "p" }],
  ])("%s %s", (method, path, expected) => {
    expect(matchRoute(method, path)).toEqual(expected);
  });

  it("does not match ids outside the resource id pattern, other methods or other prefixes", () => {
    expect(matchRoute("GET", "/v1/sandboxes/a.b").route).toBe("unknown");
    expect(matchRoute("GET", `/v1/sandboxes/${"x".repeat(201)}`).route).toBe("unknown");
    expect(matchRoute("PATCH", "/v1/sandboxes/a").route).toBe("unknown");
    expect(matchRoute("GET", "/sandboxes/a").route).toBe("unknown");
  });
});
