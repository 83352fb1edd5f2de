import { describe, expect, it } from "vitest";
import { replaceFigures } from "./readme-figures.js";

describe("replaceFigures", () => {
  it("replaces what stands between the suite's markers", () => {
    const readme = "intro\n<!-- bench:sandbox:start -->\nold\n<!-- bench:sandbox:end -->\noutro";
    expect(replaceFigures(readme, "sandbox", "| new |")).toBe(
      "intro\n<!-- bench:sandbox:start -->\n| new |\n<!-- bench:sandbox:end -->\noutro",
    );
  });

  it("leaves a README without the markers, or with another suite's, unchanged", () => {
    expect(replaceFigures("no markers", "sandbox", "x")).toBe("no markers");
    const other = "<!-- bench:createos:start -->\nold\n<!-- bench:createos:end -->";
    expect(replaceFigures(other, "sandbox", "x")).toBe(other);
  });
});
