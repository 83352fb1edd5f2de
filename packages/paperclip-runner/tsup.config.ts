import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

const define = { __PACKAGE_VERSION__: JSON.stringify(version) };
// The private primitives package is bundled in, never a dependency of the published tarball.
const noExternal = ["@paperclipai/internal"];

export default defineConfig([
  {
    entry: {
      index: "src/index.ts",
      prp: "src/events/index.ts",
      protocol: "src/commands/index.ts",
      diagnostics: "src/diagnostics/index.ts",
      "private-fs": "src/private-fs/index.ts",
    },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    target: "node20",
    define,
    noExternal,
  },
  {
    // The bin is one self-contained file (its dependencies included, no code splitting): a
    // runner starts on the critical path of every session, and Node's module loader spends
    // more time resolving, reading and (for CommonJS) lexing many small files than parsing one.
    entry: { "runnerd-cli": "src/cli/main.ts" },
    format: ["esm"],
    sourcemap: true,
    target: "node20",
    define,
    noExternal: [/.*/],
    // Bundled CommonJS dependencies (ws) require Node's built-ins.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);',
    },
  },
  {
    // The scripted harness runs as its own process (and inside the sandbox), so it is one self-contained file.
    entry: { "fake-harness": "src/harness/fake/fake-harness-main.ts" },
    format: ["esm"],
    sourcemap: true,
    target: "node20",
    noExternal: [/.*/],
  },
]);
