import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";
import { lazyWsBuiltins } from "./tsup.lazy-builtins.js";

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
    // The bin is one self-contained CommonJS file (its dependencies included, no code
    // splitting, loaded by a CommonJS bin): a runner starts on the critical path of every
    // session, and Node's ES module loader spends more time than `require` on the same code
    // (its own start-up, resolving and linking each module); the modules only some runs need
    // are still evaluated lazily, on their first dynamic import.
    entry: { "runnerd-cli": "src/cli/main.ts" },
    format: ["cjs"],
    // The server stages a remote runner as one file (PAPERCLIP_RUNNER_REMOTE_BINARY_PATH) and
    // executes it: with Node on the remote PATH, this file alone is that runner.
    banner: { js: "#!/usr/bin/env node" },
    splitting: false,
    // No comments and no indentation: V8 reads, scans and pre-parses the whole file before the
    // first line runs, and a single non-ASCII character in a comment made it a two-byte string
    // twice the size. Names are kept (readable stacks); the source map maps the lines back.
    minifyWhitespace: true,
    // ws's TLS, HTTPS and deflate modules load on first use: a runner dials ws:// without
    // compression, and loading them costs the start of every session.
    esbuildPlugins: [lazyWsBuiltins],
    // The scripted harness is found beside this file through import.meta.url.
    shims: true,
    sourcemap: true,
    target: "node20",
    define,
    // adapter-utils stays an import: it finds its Node bridge and native binaries beside its
    // own modules, and only a local-mode sandboxed harness loads it (a dynamic import).
    noExternal: [/^(?!@paperclipai\/adapter-utils(\/|$))/],
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
