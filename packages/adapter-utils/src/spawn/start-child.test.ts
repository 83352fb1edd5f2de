import { describe, expect, it } from "vitest";
import { childStdio } from "./start-child.js";

describe("childStdio", () => {
  it("pipes output, and stdin only when there is some to write", () => {
    expect(childStdio({ stdin: "input" }, { status: null, seccomp: null })).toEqual([
      "pipe",
      "pipe",
      "pipe",
      "ignore",
    ]);
    expect(childStdio({}, { status: null, seccomp: null })).toEqual(["ignore", "pipe", "pipe", "ignore"]);
  });

  it("gives bwrap its status pipe on fd 3 and its filter pipe on fd 4", () => {
    expect(childStdio({}, { status: {}, seccomp: Buffer.alloc(8) })).toEqual([
      "ignore",
      "pipe",
      "pipe",
      "pipe",
      "pipe",
    ]);
  });

  it("connects the caller's terminal when asked", () => {
    expect(childStdio({ stdio: "inherit" }, { status: {}, seccomp: null })).toEqual([
      "inherit",
      "inherit",
      "inherit",
      "pipe",
    ]);
  });

  it("relays through a pipe each of the caller's descriptors its route says to", () => {
    expect(
      childStdio({ stdio: "inherit" }, { status: {}, seccomp: null }, ["relay", "inherit", "relay"]),
    ).toEqual(["pipe", "inherit", "pipe", "pipe"]);
  });
});
