import { caughtSync as thrown } from "@paperclipai/errors/testing";
import { describe, expect, it } from "vitest";
import { parseFlags } from "./flags.js";

describe("parseFlags", () => {
  it("reads --name value pairs, first occurrence wins", () => {
    const flags = parseFlags(["--run-id", "run_1", "--session-id", "s_1", "--run-id", "run_2"]);
    expect(flags.value("--run-id")).toBe("run_1");
    expect(flags.required("--session-id")).toBe("s_1");
    expect(flags.value("--runner-id")).toBeUndefined();
    expect(flags.has("--run-id")).toBe(true);
    expect(flags.has("--runner-id")).toBe(false);
  });

  it("collects repeatable flags in order, verbatim even when they look like flags", () => {
    const flags = parseFlags([
      "--harness-arg",
      "--verbose",
      "--harness-arg",
      "x",
      "--sandbox-allow",
      "a.example",
    ]);
    expect(flags.all("--harness-arg")).toEqual(["--verbose", "x"]);
    expect(flags.all("--sandbox-allow")).toEqual(["a.example"]);
    expect(flags.all("--script")).toEqual([]);
    expect(flags.unknown).toEqual([]);
  });

  it("reads boolean flags alone", () => {
    const flags = parseFlags(["--help", "--script", "s.json"]);
    expect(flags.has("--help")).toBe(true);
    expect(flags.has("--build-metadata")).toBe(false);
    expect(flags.value("--script")).toBe("s.json");
  });

  it("reports unknown flags by name only and skips their values", () => {
    const flags = parseFlags(["--transport-token", "hunter2-secret", "--verbose", "--run-id", "r", "stray"]);
    expect(flags.unknown).toEqual(["--transport-token", "--verbose"]);
    expect(flags.value("--run-id")).toBe("r");
    expect(flags.strayArguments).toBe(1);
    expect(flags.count).toBe(6);
  });

  it("throws missing required argument <name>", () => {
    const error = thrown(() => parseFlags([]).required("--run-id"));
    expect(error.code).toBe("ERR_RUNNER_MISSING_ARGUMENT");
    expect(error.message).toBe("missing required argument --run-id");
    expect(error.details).toEqual({ name: "--run-id" });
  });

  it("throws missing value for <name> at the end of argv or before another known flag", () => {
    const atEnd = parseFlags(["--run-id", "r", "--script"]);
    const error = thrown(() => atEnd.value("--script"));
    expect(error.code).toBe("ERR_RUNNER_MISSING_VALUE");
    expect(error.message).toBe("missing value for --script");
    expect(atEnd.value("--run-id")).toBe("r");
    const beforeFlag = parseFlags(["--run-id", "--session-id", "s"]);
    expect(thrown(() => beforeFlag.required("--run-id")).message).toBe("missing value for --run-id");
    expect(beforeFlag.value("--session-id")).toBe("s");
    expect(thrown(() => parseFlags(["--harness-arg"]).all("--harness-arg")).message).toBe(
      "missing value for --harness-arg",
    );
  });

  it("assertValuesPresent reports a valueless flag nobody read", () => {
    expect(thrown(() => parseFlags(["--help", "--state-dir"]).assertValuesPresent()).message).toBe(
      "missing value for --state-dir",
    );
    expect(() =>
      parseFlags(["--help", "--state-dir", "d", "--state-dir"]).assertValuesPresent(),
    ).not.toThrow();
  });

  it("throws invalid <name>: <reason> for an empty required value", () => {
    const error = thrown(() => parseFlags(["--run-id", ""]).required("--run-id"));
    expect(error.code).toBe("ERR_RUNNER_INVALID_ARGUMENT");
    expect(error.message).toBe("invalid --run-id: must not be empty");
    expect(error.details).toEqual({ name: "--run-id", reason: "must not be empty" });
  });
});
