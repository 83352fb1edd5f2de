import { describe, expect, it } from "vitest";
import { codeLiterals } from "../src/code-literals.js";

const asserted = (text: string) =>
  codeLiterals("x.test.ts", text).map((literal) => [literal.code, literal.asserted]);

describe("codeLiterals", () => {
  it("does not see a code in a comment", () => {
    expect(asserted("// throws ERR_RUNNER_STATE_CORRUPT\n/* ERR_SANDBOX_SPAWN */ const a = 1;")).toEqual([]);
  });

  it("counts a code asserted through an expect chain, an asymmetric matcher or a rejection", () => {
    const text = `
      expect(error.code).toBe("ERR_RUNNER_STATE_CORRUPT");
      expect(list).toEqual([expect.objectContaining({ code: "ERR_SANDBOX_SPAWN" })]);
      await expect(run()).rejects.toThrow(/\\[ERR_CREATEOS_HTTP\\]/);
      expect(stderr).toContain(\`open '\${dir}' [ERR_RUNNER_DIAGNOSTICS_DIR_MISSING]\`);`;
    expect(asserted(text)).toEqual([
      ["ERR_RUNNER_STATE_CORRUPT", true],
      ["ERR_SANDBOX_SPAWN", true],
      ["ERR_CREATEOS_HTTP", true],
      ["ERR_RUNNER_DIAGNOSTICS_DIR_MISSING", true],
    ]);
  });

  it("counts a code passed to an expect… or assert… helper, and the table of it.each", () => {
    const text = `
      await expectCode(run(), "ERR_RUNNER_STATE_CORRUPT");
      assert.equal(error.code, "ERR_SANDBOX_SPAWN");
      it.each([["ERR_CREATEOS_HTTP"]])("%s", (code) => expect(f().code).toBe(code));`;
    expect(asserted(text).map(([, yes]) => yes)).toEqual([true, true, true]);
  });

  it("counts a code caught or caughtSync must find, but not a helper that merely starts like them", () => {
    const text = `
      await caught(run(), "ERR_RUNNER_STATE_CORRUPT");
      caughtSync(() => parse(""), "ERR_SANDBOX_SPAWN");
      caughtError(run(), "ERR_CREATEOS_HTTP");`;
    expect(asserted(text).map(([, yes]) => yes)).toEqual([true, true, false]);
  });

  it("follows a constant or a fixture function into the assertion that uses it", () => {
    const text = `
      const SEED = "ERR_RUNNER_STATE_CORRUPT";
      function expected() { return { code: "ERR_SANDBOX_SPAWN" }; }
      const unused = "ERR_CREATEOS_HTTP";
      it("x", () => { expect(f()).toMatchObject({ code: SEED, ...expected() }); });`;
    expect(asserted(text)).toEqual([
      ["ERR_RUNNER_STATE_CORRUPT", true],
      ["ERR_SANDBOX_SPAWN", true],
      ["ERR_CREATEOS_HTTP", false],
    ]);
  });

  it("does not count an error the test builds itself, even inside an assertion", () => {
    const text = 'expect(serialize(new RunnerError("ERR_RUNNER_STATE_CORRUPT", "m"))).toMatchObject({});';
    expect(asserted(text)).toEqual([["ERR_RUNNER_STATE_CORRUPT", false]]);
  });

  it("does not count a test title, a thrown fake, or a name that only shares a member's spelling", () => {
    const text = `
      it("refuses with ERR_RUNNER_STATE_CORRUPT", () => {
        const fake = () => { throw new RunnerError("ERR_SANDBOX_SPAWN", "m"); };
        const code = "ERR_CREATEOS_HTTP";
        expect(error.code).toBe(other);
      });`;
    expect(asserted(text).map(([, yes]) => yes)).toEqual([false, false, false]);
  });
});
