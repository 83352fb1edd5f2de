import { PaperclipError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { frameOfLine } from "./frame-bytes.js";
import { lineKind } from "./line-kind.js";
import { parseFrameLine, type RawFrame } from "./output-frame.js";

/** What the whole-line parser makes of `text`: the frame, null for a blank line, or the error code. */
function reference(text: string): RawFrame | null | string {
  try {
    return lineKind(text) === "blank" ? null : parseFrameLine(text);
  } catch (error) {
    return PaperclipError.is(error) ? error.code : "not coded";
  }
}

function ours(text: string): RawFrame | null | string {
  try {
    return frameOfLine(Buffer.from(text, "utf8"));
  } catch (error) {
    return PaperclipError.is(error) ? error.code : "not coded";
  }
}

const data = '{"type":"data","seq":3,"stream":"stdout","data_base64":"aGk="}';

describe("frameOfLine", () => {
  it("reads a data frame by cutting its payload out, as the whole-line parser reads it", () => {
    expect(ours(data)).toEqual({ type: "data", seq: 3, stream: "stdout", data_base64: "aGk=" });
  });

  it.each([
    data,
    '{"data_base64":"aGk=","seq":1,"stream":"stderr","type":"data"}',
    '{"type":"data","seq":1,"stream":"stdout","data_base64":"aGk=","note":"é🙂"}',
    // An escape in the payload: the full parser reads it (to valid base64 here).
    '{"type":"data","seq":1,"stream":"stdout","data_base64":"aG\\u006b="}',
    // The key twice: the last one wins, as in JSON.parse.
    '{"type":"data","seq":1,"stream":"stdout","data_base64":"aGk=","data_base64":"b2s="}',
    // The key's text inside another key, or inside a string.
    '{"type":"data","k\\"data_base64":"aGk=","seq":1}',
    '{"type":"data","x":"\\"data_base64\\":\\"aGk=\\"","seq":1,"stream":"stdout","data_base64":"b2s="}',
    '{"type":"data","seq":1,"stream":"stdout","data_base64":""}',
    '{"seq":1,"data_base64":"aGk="}',
    '{"status":"error","data_base64":"aGk="}',
    '{"type":"data","data_base64":"aGk=" garbage',
    '{"type":"data","data_base64":"aGk=',
    '{"type":"data","data_base64":"a"b"}',
    '{"type":"heartbeat"}',
    '{"type":"exit","exit_code":0}',
    "  \r",
    "",
    "<html>",
    '["data_base64":"aGk="]',
  ])("decides %s as the whole-line parser does", (line) => {
    expect(ours(line)).toEqual(reference(line));
  });
});
