import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { newTreePath, ownStagingOwner, parseStagingName, treeClock, UNKNOWN } from "./staging-name.js";

/** `read()`, or undefined when it throws (a file this host lacks). */
function readable<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * This host's facts as the kernel gives them: the boot id (Linux, where readable) and the pid
 * namespace. Staging names and tree clocks must follow them, whichever host runs the tests.
 */
function hostFacts(): { readonly boot: string | undefined; readonly ns: string | undefined } {
  if (process.platform !== "linux") return { boot: undefined, ns: undefined };
  const id = readable(() =>
    readFileSync("/proc/sys/kernel/random/boot_id", "utf8").replace(/[^0-9a-f]/g, ""),
  );
  return {
    boot: id !== undefined && id.length >= 16 ? id.slice(0, 16) : undefined,
    ns: readable(() => String(statSync("/proc/self/ns/pid").ino)),
  };
}

describe("this process's staging owner and tree clock", () => {
  it("are named by this host's pid namespace and boot, as far as it can tell them", () => {
    const { boot, ns } = hostFacts();
    const linux = process.platform === "linux";
    expect(ownStagingOwner()).toEqual({
      ns: linux ? (ns ?? UNKNOWN) : "0",
      boot: boot ?? UNKNOWN,
      pid: process.pid,
    });
  });

  it("is the monotonic clock of this boot where the boot can be told, else none (the wall clock)", () => {
    const { boot } = hostFacts();
    if (boot === undefined) expect(treeClock()).toBeUndefined();
    else expect(treeClock()).toMatch(new RegExp(`^${boot}\\.\\d+$`));
  });
});

describe("parseStagingName", () => {
  const target = "/host/target";
  const uuid = "0b7e6f3a-2c4d-4e5f-8a9b-0c1d2e3f4a5b";

  it("reads the owner the name carries", () => {
    expect(
      parseStagingName(target, ".target.paperclip-sync-n4026531836-b0123456789abcdef-p42-Ab12Cd.old"),
    ).toEqual({
      owner: { ns: "4026531836", boot: "0123456789abcdef", pid: 42 },
      kind: "old",
    });
  });

  it("knows the names of releases from before the owner was written, without an owner", () => {
    for (const [rest, kind] of [
      [uuid, "staging"],
      ["Ab12Cd", "staging"],
      ["Ab12Cd.old", "old"],
      [`123-${uuid}`, "staging"],
      ["123-Ab12Cd", "staging"],
      ["123-Ab12Cd.old", "old"],
    ] as const) {
      expect(parseStagingName(target, `.target.paperclip-sync-${rest}`)).toEqual({ owner: undefined, kind });
    }
  });

  it("reads the owner of a tree named for a hash of the target, and knows it only for that target", () => {
    const claim = basename(newTreePath(target, "restore"));
    expect(parseStagingName(target, claim)).toEqual({ owner: ownStagingOwner(), kind: "restore" });
    for (const kind of ["old", "released"] as const)
      expect(parseStagingName(target, basename(newTreePath(target, kind)))).toEqual({
        owner: ownStagingOwner(),
        kind,
      });
    expect(parseStagingName("/host/other", claim)).toBeUndefined();
    for (const near of [claim.replace(/\.restore$/, ".older"), claim.replace(/\.restore$/, ""), `${claim}x`])
      expect(parseStagingName(target, near)).toBeUndefined();
  });

  it("reads when a tree left the target, and on which clock", () => {
    const left = { clock: treeClock(), from: 5, until: 7 };
    expect(parseStagingName(target, basename(newTreePath(target, "old", left)))).toEqual({
      owner: ownStagingOwner(),
      kind: "old",
      left,
    });
    const unnoted = { clock: treeClock(), from: 5, until: undefined };
    expect(parseStagingName(target, basename(newTreePath(target, "restore", unnoted)))?.left).toEqual(
      unnoted,
    );
  });

  it("knows the staging entries of a target whose name starts as a hashed tree's", () => {
    const odd = "/host/paperclip-sync-h0123";
    expect(parseStagingName(odd, `.paperclip-sync-h0123.paperclip-sync-${uuid}`)).toEqual({
      owner: undefined,
      kind: "staging",
    });
  });

  it("takes a near miss for no staging entry", () => {
    for (const rest of [
      "notapid",
      "Ab12C",
      `${uuid}.old`,
      "Ab12Cd.restore",
      "123-Ab12Cd7",
      "n1-bu-p2",
      "Ab12Cd.older",
    ]) {
      expect(parseStagingName(target, `.target.paperclip-sync-${rest}`)).toBeUndefined();
    }
    expect(parseStagingName(target, `.other.paperclip-sync-${uuid}`)).toBeUndefined();
  });
});
