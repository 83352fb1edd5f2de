#!/usr/bin/env node
// CommonJS (bin/package.json): the daemon is one CommonJS bundle, loaded without the ES module loader.
const { enableCompileCache } = require("node:module");
const { join } = require("node:path");

// A runner starts on the critical path of every session, and compiling the bundle is a good part
// of its own start: V8's code cache for it is kept beside the package (never in the system temp
// directory), written when a runner exits and read by the next one. Where the package is not
// writable, or on a Node without the API (< 22.8), the bundle is simply compiled; an explicit
// NODE_COMPILE_CACHE or NODE_DISABLE_COMPILE_CACHE still wins.
enableCompileCache?.(join(__dirname, "..", "node_modules", ".cache", "paperclip-runnerd"));
require("../dist/runnerd-cli.cjs");
