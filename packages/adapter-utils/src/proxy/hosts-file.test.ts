import { describe, expect, it } from "vitest";
import { hostsKey, parseHostsFile } from "./hosts-file.js";

describe("parseHostsFile", () => {
  it("maps every name of a line to its address, case-insensitively, skipping comments and junk", () => {
    const table = parseHostsFile(
      [
        "# comment",
        "127.0.0.1 localhost Loopback.Test",
        "::1\tlocalhost ip6-localhost # trailing comment",
        "not-an-ip somename",
        "10.0.0.5",
        "",
        "127.0.0.1 localhost",
      ].join("\n"),
    );
    expect(table.get("localhost")).toEqual([
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ]);
    expect(table.get("loopback.test")).toEqual([{ address: "127.0.0.1", family: 4 }]);
    expect(table.get("ip6-localhost")).toEqual([{ address: "::1", family: 6 }]);
    expect(table.has("somename")).toBe(false);
    expect(table.has("trailing")).toBe(false);
  });

  it("compares names without case and trailing dot", () => {
    expect(hostsKey("API.Example.COM.")).toBe("api.example.com");
  });
});
