import { describe, expect, it } from "vitest";
import { CommandOutput, commandMetadata } from "./command-output.js";
import { TailBuffer } from "./tail-buffer.js";

describe("CommandOutput", () => {
  it("keeps every chunk in its stream's tail and passes it on to the live log, in order", () => {
    const log: string[] = [];
    const output = new CommandOutput(100, (stream, text) => log.push(`${stream}:${text}`));
    output.sink("stdout", "a", true);
    output.sink("stderr", "b", true);
    output.sink("stdout", "é", false);
    output.sink("stdout", "c", true);
    expect(log).toEqual(["stdout:a", "stderr:b", "stdout:é", "stdout:c"]);
    const stats = { cursor: 3, connections: 1, reconnects: 0, duplicates: 0 };
    expect(output.result({ exitCode: 2, signal: null }, { processId: "p1", stats })).toMatchObject({
      exitCode: 2,
      signal: null,
      timedOut: false,
      stdout: "aéc",
      stderr: "b",
      metadata: { processId: "p1", lastSeq: 3, connections: 1, outputTruncated: false },
    });
  });
  it("a timeout's result has no exit and says timedOut", () => {
    const output = new CommandOutput(100, undefined);
    output.sink("stdout", "partial", true);
    expect(output.result(null, { processId: undefined, stats: undefined })).toMatchObject({
      exitCode: null,
      signal: null,
      timedOut: true,
      stdout: "partial",
      metadata: { processId: null, lastSeq: 0, connections: 0, reconnects: 0 },
    });
  });
});

describe("commandMetadata", () => {
  it("reports what each tail dropped", () => {
    const stdout = new TailBuffer(4);
    stdout.append("héllo!");
    const metadata = commandMetadata(
      { stdout, stderr: new TailBuffer(4) },
      { processId: "p", stats: undefined },
    );
    expect(metadata).toMatchObject({
      outputTruncated: true,
      stdoutDroppedChars: 2,
      stdoutDroppedBytes: 3,
      stderrDroppedChars: 0,
    });
  });
});
