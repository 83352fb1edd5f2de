import { caughtSync } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { chooseBridge, type NativeBridgeProbe, resolveBridgePreference } from "./bridge-choice.js";

const runs: NativeBridgeProbe = { status: "ok", path: "/pkg/dist/native/linux-x64/paperclip-sandbox-bridge" };
const missing: NativeBridgeProbe = {
  status: "missing",
  path: "/pkg/x",
  detail: "was not built for linux-arm64",
};
const broken: NativeBridgeProbe = {
  status: "failed",
  path: "/pkg/x",
  detail: "cannot run (/pkg/x: ENOEXEC)",
};

describe("resolveBridgePreference", () => {
  it("takes the option over the env, and defaults to auto", () => {
    expect(resolveBridgePreference("node", "native")).toEqual({ preference: "node", source: "option" });
    expect(resolveBridgePreference(undefined, " native ")).toEqual({ preference: "native", source: "env" });
    expect(resolveBridgePreference(null, "")).toEqual({ preference: "auto", source: "default" });
    expect(resolveBridgePreference("", undefined)).toEqual({ preference: "auto", source: "default" });
  });

  it("refuses anything else with ERR_SANDBOX_BRIDGE_CHOICE_INVALID, naming where it came from", () => {
    const fromOption = caughtSync(
      () => resolveBridgePreference("C", undefined),
      "ERR_SANDBOX_BRIDGE_CHOICE_INVALID",
    );
    expect(fromOption.message).toBe('networkBridge must be "auto", "native" or "node".');
    expect(() => resolveBridgePreference(undefined, "Native")).toThrow(
      'PAPERCLIP_SANDBOX_BRIDGE must be "auto", "native" or "node".',
    );
    expect(() => resolveBridgePreference(1, undefined)).toThrow(/networkBridge/);
  });
});

describe("chooseBridge", () => {
  it("auto takes the native bridge when it runs", () => {
    expect(chooseBridge({ preference: "auto", source: "default" }, runs)).toEqual({
      kind: "native",
      nativePath: runs.path,
      reason: `the native bridge for ${process.platform}-${process.arch} runs: ${runs.path}`,
    });
  });

  it("auto falls back to the Node bridge, saying why, when the binary is missing or does not run", () => {
    for (const probe of [missing, broken]) {
      const choice = chooseBridge({ preference: "auto", source: "default" }, probe);
      expect(choice.kind).toBe("node");
      expect(choice.nativePath).toBeNull();
      expect(choice.reason).toContain(probe.status === "failed" ? probe.detail : "was not built");
      expect(choice.reason).toContain("the Node bridge is used instead");
    }
  });

  it("node is taken as asked, without a probe", () => {
    expect(chooseBridge({ preference: "node", source: "env" }, null)).toEqual({
      kind: "node",
      nativePath: null,
      reason: "the Node bridge was asked for (PAPERCLIP_SANDBOX_BRIDGE=node)",
    });
  });

  it("native fails with ERR_SANDBOX_NATIVE_BRIDGE_UNAVAILABLE when the binary cannot be used", () => {
    expect(chooseBridge({ preference: "native", source: "option" }, runs).kind).toBe("native");
    const thrown = caughtSync(
      () => chooseBridge({ preference: "native", source: "option" }, broken),
      "ERR_SANDBOX_NATIVE_BRIDGE_UNAVAILABLE",
    );
    expect(thrown.message).toBe(
      'The native sandbox bridge was asked for (networkBridge: "native") but cannot be used: it cannot run (/pkg/x: ENOEXEC).',
    );
    expect(thrown.details).toEqual({ path: "/pkg/x", status: "failed" });
  });
});
