import { describe, expect, it } from "vitest";
import type { CodexSession } from "./codex-session.js";
import { type LiveCall, reusedCallIds } from "./reused-call-ids.js";

const session = {} as CodexSession;
const open: [string, LiveCall][] = [["call-1", { rpcId: "r1", session, paramsKey: "p" }]];

describe("reusedCallIds", () => {
  it("takes a new JSON-RPC id with a new call id, and the open request again as the same", () => {
    expect(reusedCallIds([], "r1", "call-1", "p")).toBe("new");
    expect(reusedCallIds(open, "r2", "call-2", "p")).toBe("new");
    expect(reusedCallIds(open, "r1", "call-1", "p")).toBe("same");
  });

  it("names a reused JSON-RPC id or call id in upstream's words", () => {
    expect(reusedCallIds(open, "r1", "call-2", "p")).toBe(
      "Codex reused a pending JSON-RPC id for another tool call",
    );
    // The call id again under another request, even with the same params, or with other params.
    expect(reusedCallIds(open, "r2", "call-1", "p")).toBe("Codex reused a tool call id with different input");
    expect(reusedCallIds(open, "r1", "call-1", "q")).toBe("Codex reused a tool call id with different input");
  });
});
