import type { Options } from "tsup";

type Plugin = NonNullable<Options["esbuildPlugins"]>[number];

/** The Node built-ins ws requires at its top level that a `ws://` connection without compression never uses. */
const LAZY = /^(https|tls|zlib)$/;
/** ws's optional native add-ons: it tries to require them at its top level and falls back to its own JavaScript. */
const OPTIONAL_ADDONS = /^(bufferutil|utf-8-validate)$/;
const WS_MODULE = /[\\/]node_modules[\\/]ws[\\/]/;

/**
 * Hands ws, in place of `https`, `tls` and `zlib`, an object that requires the built-in on its
 * first property read: ws only reads them to dial `wss://` (`https.request`, `tls.connect`) or
 * to (de)compress a permessage-deflate frame, so the bin starts without loading them. Its optional
 * add-ons `bufferutil` and `utf-8-validate` resolve to a module that throws, as an absent one does.
 */
export const lazyWsBuiltins: Plugin = {
  name: "lazy-ws-builtins",
  setup(build) {
    build.onResolve({ filter: LAZY }, (args) =>
      WS_MODULE.test(args.importer) ? { path: args.path, namespace: "lazy-builtin" } : undefined,
    );
    // Not bundled, and never looked for: the lookup walks every node_modules directory above the
    // bin (a stat and a package.json read each) on the start of every session, and ws's own
    // masking and UTF-8 check are what it uses anyway when the add-ons are absent.
    build.onResolve({ filter: OPTIONAL_ADDONS }, (args) =>
      WS_MODULE.test(args.importer) ? { path: args.path, namespace: "absent-addon" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "absent-addon" }, (args) => ({
      loader: "js",
      contents: `throw new Error(${JSON.stringify(`${args.path} is not bundled`)});`,
    }));
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({
      loader: "js",
      contents: [
        "let loaded;",
        `const load = () => (loaded ??= require("node:${args.path}"));`,
        "module.exports = new Proxy({}, { get: (_, key) => load()[key] });",
      ].join("\n"),
    }));
  },
};
