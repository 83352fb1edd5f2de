import { describe, expect, it } from "vitest";
import { parseBridgeArgv } from "./bridge-argv.js";

describe("parseBridgeArgv", () => {
  it("takes the socket, the program and the program's own arguments, verbatim", () => {
    expect(parseBridgeArgv(["/run/proxy.sock", "curl", "-s", "--", "x"])).toEqual({
      socketPath: "/run/proxy.sock",
      executable: "curl",
      args: ["-s", "--", "x"],
    });
  });

  it("refuses an argv without a socket or a program", () => {
    expect(parseBridgeArgv([])).toBeNull();
    expect(parseBridgeArgv(["/run/proxy.sock"])).toBeNull();
    expect(parseBridgeArgv(["", "curl"])).toBeNull();
  });
});
