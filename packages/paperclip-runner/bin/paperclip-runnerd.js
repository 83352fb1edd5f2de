#!/usr/bin/env node
// CommonJS (bin/package.json): the daemon is one CommonJS bundle, loaded without the ES module loader.
require("../dist/runnerd-cli.cjs");
