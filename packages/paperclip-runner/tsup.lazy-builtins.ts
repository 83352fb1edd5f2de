import type { Options } from "tsup";

type Plugin = NonNullable<Options["esbuildPlugins"]>[number];

/** The Node built-ins ws requires at its top level that a `ws://` connection without compression never uses. */
const LAZY = /^(https|tls|zlib)$/;
const WS_MODULE = /[\\/]node_modules[\\/]ws[\\/]/;

/**
 * Hands ws, in place of `https`, `tls` and `zlib`, an object that requires the built-in on its
 * first property read: ws only reads them to dial `wss://` (`https.request`, `tls.connect`) or
 * to (de)compress a permessage-deflate frame, so the bin starts without loading them.
 */
export const lazyWsBuiltins: Plugin = {
  name: "lazy-ws-builtins",
  setup(build) {
    build.onResolve({ filter: LAZY }, (args) =>
      WS_MODULE.test(args.importer) ? { path: args.path, namespace: "lazy-builtin" } : undefined,
    );
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
