import { describe, expect, it } from "vitest";
import { hostOwnedEntries, unknownKeys } from "./config-keys.js";

describe("unknownKeys", () => {
  it("tolerates the plugin's keys, the host's flags and the lease record", () => {
    expect(
      unknownKeys({
        apiUrl: 1,
        timeoutMs: 1,
        archiveOnRelease: 1,
        runnerLifecycleMode: 1,
        marker: 1,
        sandboxId: 1,
        reusableSandboxLease: 1,
      }),
    ).toEqual([]);
  });

  it.each([
    ["shpae", "shape"],
    ["apikey", "apiKey"],
    ["api_url", "apiUrl"],
    ["timeoutMS", "timeoutMs"],
    ["reuseLeases", "reuseLease"],
    ["regoin", "region"],
  ])("names %j a misspelling of %j", (key, meant) => {
    expect(unknownKeys({ [key]: 1 })).toEqual([{ key, kind: "misspelt", meant }]);
  });

  it.each(["dashboardUrl", "image", "size", "memoryMb"])("calls %j foreign", (key) => {
    expect(unknownKeys({ [key]: 1 })).toEqual([{ key, kind: "foreign" }]);
  });
});

describe("hostOwnedEntries", () => {
  it("keeps the host's flags that are set, never the provider key", () => {
    expect(
      hostOwnedEntries({
        provider: "createos",
        archiveOnRelease: false,
        streamRunLogs: undefined,
        shape: "x",
      }),
    ).toEqual({ archiveOnRelease: false });
  });
});
