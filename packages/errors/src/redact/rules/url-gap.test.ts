import { describe, expect, it } from "vitest";
import { readUrlGap } from "./url-gap.js";

describe("readUrlGap", () => {
  it("finds the next userinfo and the host's end in a gap the URL rule reads the same after any password", () => {
    expect(readUrlGap("@h/ http://u:")).toEqual({ text: "@h/ http://u:", userStart: 11, hostEnd: 2 });
    // An empty user, a port, a path and a `://` after a character that is not a letter or digit.
    expect(readUrlGap("@db:5432/app redis://:")).toEqual({
      text: "@db:5432/app redis://:",
      userStart: 21,
      hostEnd: 8,
    });
    expect(readUrlGap("@h/x -://y http://u:")).toMatchObject({ userStart: 18, hostEnd: 2 });
    expect(readUrlGap("@h\u00a0x://ü:")).toMatchObject({ userStart: 7, hostEnd: 2 });
  });

  it("declines a gap whose `@` is not the userinfo's last or is not followed by a letter or digit", () => {
    expect(readUrlGap("h/ http://u:")).toBeNull();
    expect(readUrlGap("@-h/ http://u:")).toBeNull();
    expect(readUrlGap("@h@i/ http://u:")).toBeNull();
  });

  it("declines a gap whose next URL is not the first one the rule reads, or whose user it cannot skip", () => {
    // No scheme, a scheme after no letter or digit, an earlier URL the rule would read first.
    expect(readUrlGap("@h/ u:")).toBeNull();
    expect(readUrlGap("@h/ -://u:")).toBeNull();
    expect(readUrlGap("@h/ a://x http://u:")).toBeNull();
    // A user holding `:`, `@` or a character that ends a userinfo; a gap that ends elsewhere than a `:`.
    expect(readUrlGap("@h/ http://u:v:")).toBeNull();
    expect(readUrlGap("@h/ http://u@v:")).toBeNull();
    expect(readUrlGap("@h/ http://u\u2028v:")).toBeNull();
    expect(readUrlGap("@h/ http://u")).toBeNull();
    expect(readUrlGap("@h/ http://")).toBeNull();
  });
});
