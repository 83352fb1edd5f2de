import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { BRIDGE_SOURCE } from "./bridge-source.js";

describe("bridge source", () => {
  it("is a standalone CommonJS script that embeds the proxy's read relay", () => {
    expect(() => new Script(BRIDGE_SOURCE, { filename: "bridge.cjs" })).not.toThrow();
    expect(BRIDGE_SOURCE).toContain("function relayReadsInto(to, from, onRelayed)");
    expect(BRIDGE_SOURCE).toContain("onread: relayReadsInto(client, () => upstream)");
    expect(BRIDGE_SOURCE).toContain("function forwardInto(from, to, onRelayed)");
    expect(BRIDGE_SOURCE).toContain("forwardInto(client, upstream);");
    // Only Node built-ins: the bridge runs in the sandbox with nothing else on its path.
    const requires = [...BRIDGE_SOURCE.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]);
    expect(requires.every((name) => name?.startsWith("node:"))).toBe(true);
  });
});
