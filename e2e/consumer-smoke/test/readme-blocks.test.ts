import { describe, expect, it } from "vitest";
import { typescriptBlocks } from "./readme-blocks.js";

describe("typescriptBlocks", () => {
  it("returns the ts and typescript fences in order, and no other language's", () => {
    const markdown = [
      "# x",
      "```ts",
      "const a = 1;",
      "```",
      "```sh",
      "npm install x",
      "```",
      "```typescript",
      "const b = 2;",
      "",
      "console.log(b);",
      "```",
      "```tsx",
      "<div />",
      "```",
    ].join("\n");
    expect(typescriptBlocks(markdown)).toEqual(["const a = 1;\n", "const b = 2;\n\nconsole.log(b);\n"]);
  });
});
