import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// The built files, as downstream users load them: both copies in one process.
type ErrorsModule = typeof import("../src/index.js");
const esm = (await import("../dist/index.js")) as ErrorsModule;
const cjs = createRequire(import.meta.url)("../dist/index.cjs") as ErrorsModule;

describe("the ESM and the CJS build in one process", () => {
  it("are two distinct copies of the classes", () => {
    expect(esm.PaperclipError).not.toBe(cjs.PaperclipError);
  });

  it.each([
    ["ESM", "CJS", esm, cjs],
    ["CJS", "ESM", cjs, esm],
  ] as const)(
    "an error thrown through the %s build is recognised by the %s build",
    (_from, _to, thrower, checker) => {
      const error = new thrower.CreateosApiError(
        "ERR_CREATEOS_OUTPUT_CONNECTION",
        "CreateOS process output connection failed.",
        {
          status: 503,
          operation: "output connection",
        },
      );
      expect(error).toBeInstanceOf(checker.CreateosApiError);
      expect(error).toBeInstanceOf(checker.CreateosError);
      expect(error).toBeInstanceOf(checker.PaperclipError);
      expect(error).not.toBeInstanceOf(checker.SandboxError);
      expect(checker.PaperclipError.is(error, "ERR_CREATEOS_OUTPUT_CONNECTION")).toBe(true);
      expect(error.code).toBe("ERR_CREATEOS_OUTPUT_CONNECTION");
      expect(checker.serializeError(error)).toEqual(thrower.serializeError(error));
      const rebuilt = checker.deserializeError(JSON.stringify(error));
      expect(rebuilt).toBeInstanceOf(thrower.CreateosApiError);
    },
  );
});
