import { caught } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { ExtractedLinks } from "./extracted-links.js";

describe("ExtractedLinks", () => {
  it("holds the paths in order while they fit", () => {
    const links = new ExtractedLinks(100);
    links.add("a");
    links.add("b/c");
    expect(links.paths).toEqual(["a", "b/c"]);
  });

  it("refuses the link that takes it past its bound, as the extraction limit", async () => {
    const links = new ExtractedLinks(100);
    links.add("x".repeat(30));
    const error = await caught(
      Promise.resolve().then(() => links.add("y".repeat(40))),
      "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY",
    );
    expect(error.message).toBe("CreateOS archive contains unsafe entries or exceeds the extraction limit.");
    expect(error.details).toEqual({ entry: "y".repeat(40), linkPathsBytes: 100 });
    expect(links.paths).toEqual(["x".repeat(30)]);
  });
});
