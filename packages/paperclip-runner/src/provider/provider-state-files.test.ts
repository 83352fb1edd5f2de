import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { caughtSync } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { providerStateOwner } from "./provider-state-files.js";

describe("which provider owns a state directory on a restart", () => {
  it("is the one provider state file present, or none", () => {
    const dir = tempDirForTest("provider-owner-");
    expect(providerStateOwner(dir)).toBeNull();
    writeFileSync(join(dir, "codex-provider-state.json"), "{}");
    expect(providerStateOwner(dir)).toBe("codex");
  });

  it("refuses two provider state files, and a kind this runner does not execute", () => {
    const dir = tempDirForTest("provider-owner-");
    writeFileSync(join(dir, "acpx-provider-state.json"), "{}");
    const unsupported = caughtSync(() => providerStateOwner(dir));
    expect(unsupported.code).toBe("ERR_RUNNER_PROVIDER_KIND_UNSUPPORTED");
    expect(unsupported.message).toBe(
      "provider kind acpx is not executable through the local runnerd boundary",
    );
    writeFileSync(join(dir, "codex-provider-state.json"), "{}");
    const conflict = caughtSync(() => providerStateOwner(dir));
    expect(conflict.code).toBe("ERR_RUNNER_PROVIDER_STATE_CONFLICT");
    expect(conflict.message).toBe("runner state contains conflicting provider authorities");
  });
});
