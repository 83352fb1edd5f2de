import { describe, expect, it } from "vitest";
import { readWrittenTarget } from "./written-target.js";

describe("readWrittenTarget", () => {
  it.each([
    ["http://api.test/", { scheme: "http", host: "api.test", port: null }],
    ["HTTP://API.test:8080/x?y", { scheme: "http", host: "API.test", port: 8080 }],
    ["http://user:pw@xn--zz.com", { scheme: "http", host: "xn--zz.com", port: null }],
    ["https://[::1]:443#f", { scheme: "https", host: "[::1]", port: 443 }],
    ["http://host:/", { scheme: "http", host: "host", port: null }],
  ])("%s is %j", (target, expected) => {
    expect(readWrittenTarget(target)).toEqual(expected);
  });

  it.each(["/relative", "http:host", "http://host:8x/", "http://[::1/", "*"])(
    "%j has no written host",
    (target) => {
      expect(readWrittenTarget(target)).toBeNull();
    },
  );
});
