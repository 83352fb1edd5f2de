import { describe, expect, it } from "vitest";
import { type StdioKind, stdioRoute } from "./stdio-route.js";

describe("stdioRoute", () => {
  it("relays files, directories and devices, which the program could reopen with more access", () => {
    for (const kind of ["file", "directory", "device"] as const) expect(stdioRoute(kind), kind).toBe("relay");
  });

  it("relays every socket: one the program could connect again, or shut down under the caller", () => {
    expect(stdioRoute("socket")).toBe("relay");
  });

  it("passes terminals and pipes on, and leaves a closed descriptor as it is", () => {
    const passed: StdioKind[] = ["terminal", "pipe", "closed"];
    for (const kind of passed) expect(stdioRoute(kind), kind).toBe("inherit");
  });
});
