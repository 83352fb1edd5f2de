import { describe, expect, it } from "vitest";
import { type StdioKind, stdioRoute } from "./stdio-route.js";

describe("stdioRoute", () => {
  it("relays files, directories and devices, which the program could reopen with more access", () => {
    for (const kind of ["file", "directory", "device"] as const)
      expect(stdioRoute(kind, 0), kind).toBe("relay");
  });

  it("relays every socket: one the program could connect again, or shut down under the caller", () => {
    for (const fd of [0, 1, 2] as const) expect(stdioRoute("socket", fd)).toBe("relay");
  });

  it("passes terminals and output pipes on, and leaves a closed descriptor as it is", () => {
    const passed: StdioKind[] = ["terminal", "pipe", "closed"];
    for (const kind of passed) expect(stdioRoute(kind, 1), kind).toBe("inherit");
    expect(stdioRoute("terminal", 0)).toBe("inherit");
  });

  it("relays an input pipe, which the program could open again to write for the caller's next reader", () => {
    expect(stdioRoute("pipe", 0)).toBe("relay");
    expect(stdioRoute("pipe", 2)).toBe("inherit");
  });
});
