import { describe, expect, it } from "vitest";
import { judgeTrailingLine, lineKind } from "./line-kind.js";

describe("lineKind", () => {
  it("skips whitespace-only keep-alive lines, CRLF leftovers included", () => {
    expect(["", "\r", "  ", "\t \r"].map(lineKind)).toEqual(["blank", "blank", "blank", "blank"]);
  });
  it("hands everything else to the frame parser", () => {
    expect(['{"type":"heartbeat"}\r', "<html>", "\u00a0"].map(lineKind)).toEqual(["frame", "frame", "frame"]);
  });
});

describe("judgeTrailingLine", () => {
  it("treats nothing or whitespace as nothing", () => {
    expect(judgeTrailingLine("")).toEqual("none");
    expect(judgeTrailingLine(" \r")).toEqual("none");
  });
  it("accepts a complete last frame without its newline", () => {
    expect(judgeTrailingLine('{"type":"exit","exit_code":0}')).toEqual("frame");
    expect(judgeTrailingLine(' {"type":"exit","signal":"SIGKILL"} \r')).toEqual("frame");
  });
  it("sees a frame cut in the middle as a drop", () => {
    expect(judgeTrailingLine('{"type":"data","seq":')).toEqual("cut");
    expect(judgeTrailingLine("{")).toEqual("cut");
  });
  it("rejects text that can never begin an object", () => {
    expect(judgeTrailingLine("<html><body>Bad gateway</body></html>")).toEqual("invalid");
    expect(judgeTrailingLine("[1]")).toEqual("invalid");
  });
});
