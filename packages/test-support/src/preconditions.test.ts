import { describe, expect, it } from "vitest";
import { integrationPreconditions, unmetNeeds } from "./preconditions.js";

describe("unmetNeeds", () => {
  it("names a missing build file and the command that makes it", () => {
    const missing = unmetNeeds("@paperclipai/example", {
      build: [new URL("file:///nonexistent/dist/index.js")],
    });
    expect(missing).toEqual([
      "the build (/nonexistent/dist/index.js): pnpm exec turbo run build --filter=@paperclipai/example...",
    ]);
  });

  it("is empty when every need is met", () => {
    expect(unmetNeeds("@paperclipai/example", { build: [new URL(import.meta.url)] })).toEqual([]);
  });
});

describe("integrationPreconditions", () => {
  it("throws one message listing every unmet need and how to run the unit tests alone", () => {
    const check = integrationPreconditions("@paperclipai/example", {
      build: [new URL("file:///nonexistent/a.js"), new URL("file:///nonexistent/b.js")],
    });
    expect(check).toThrow(
      "The integration tests of @paperclipai/example (test/) need:\n" +
        "  - the build (/nonexistent/a.js, /nonexistent/b.js): pnpm exec turbo run build --filter=@paperclipai/example...\n" +
        "The unit tests (src/) need none of it: pnpm --filter @paperclipai/example exec vitest run --project unit",
    );
  });
});
