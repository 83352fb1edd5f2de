import { PaperclipError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { COURIER_UNREACHABLE_MARK, courierFailure } from "./spawn-failure.js";

describe("courierFailure", () => {
  it("is ERR_SANDBOX_COURIER_UNREACHABLE for the bridge's own line and exit 125", () => {
    const error = courierFailure(
      125,
      `noise\n${COURIER_UNREACHABLE_MARK}t0k3n: cannot reach the tunnel courier beside /x\n`,
      "t0k3n",
    );
    expect(PaperclipError.is(error, "ERR_SANDBOX_COURIER_UNREACHABLE")).toBe(true);
    expect(error?.details).toEqual({ reason: "cannot reach the tunnel courier beside /x" });
  });

  it("is nothing for any other status or output", () => {
    expect(courierFailure(1, `${COURIER_UNREACHABLE_MARK}t0k3n: x`, "t0k3n")).toBeNull();
    expect(
      courierFailure(125, "paperclip-sandbox bridge: cannot listen on 127.0.0.1:31337", "t0k3n"),
    ).toBeNull();
  });

  it("is nothing for the line without the run's token: the program can write it too", () => {
    expect(courierFailure(125, `${COURIER_UNREACHABLE_MARK}x`, null)).toBeNull();
    expect(courierFailure(125, `${COURIER_UNREACHABLE_MARK}x`, "t0k3n")).toBeNull();
    expect(courierFailure(125, `${COURIER_UNREACHABLE_MARK}guess: x`, "t0k3n")).toBeNull();
  });
});
