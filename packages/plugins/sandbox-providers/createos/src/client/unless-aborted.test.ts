import { describe, expect, it } from "vitest";
import { unlessAborted } from "./unless-aborted.js";

describe("unlessAborted", () => {
  it("settles as the work does while the signal holds", async () => {
    await expect(unlessAborted(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
  });

  it("rejects with the signal's reason when it aborts first, and the work runs on", async () => {
    const controller = new AbortController();
    let finish!: (value: number) => void;
    const work = new Promise<number>((resolve) => {
      finish = resolve;
    });
    const waited = unlessAborted(work, controller.signal);
    const reason = new Error("cut");
    controller.abort(reason);
    await expect(waited).rejects.toBe(reason);
    finish(3);
    await expect(work).resolves.toBe(3);
  });
});
