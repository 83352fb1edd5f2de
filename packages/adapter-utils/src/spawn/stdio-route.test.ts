import { describe, expect, it } from "vitest";
import { type StdioKind, stdioRoute } from "./stdio-route.js";

describe("stdioRoute", () => {
  it("relays files, directories and devices, which the program could reopen with more access", () => {
    for (const kind of ["file", "directory", "device"] as const) expect(stdioRoute(kind), kind).toBe("relay");
  });

  it("relays a socket the program could connect again, in the caller's network namespace", () => {
    expect(stdioRoute("reconnectable-socket")).toBe("relay");
  });

  it("passes terminals, pipes and connected Unix stream sockets on, and leaves a closed descriptor as it is", () => {
    const passed: StdioKind[] = ["terminal", "pipe", "socket", "closed"];
    for (const kind of passed) expect(stdioRoute(kind), kind).toBe("inherit");
  });
});
