/**
 * The in-sandbox Node bridge: the build's `dist/node-bridge.cjs` entry, one CommonJS file
 * that needs nothing but Node's built-ins (it runs inside the sandbox, from the copy each
 * run writes into its directory as `bridge.cjs`), run as `node bridge.cjs <socket> <program> [args…]`.
 * It listens on 127.0.0.1:31337 inside the sandbox's network namespace and relays each
 * connection to the host proxy's Unix socket; only once it listens does it start the
 * program, whose exact status it ends with.
 */
import { closeSync, readdirSync, readFileSync } from "node:fs";
import { SANDBOX_PROXY_PORT } from "../../bwrap/system-paths.js";
import { closeInheritedDescriptors } from "../close-inherited-descriptors.js";
import { parseBridgeArgv } from "./bridge-argv.js";
import { BRIDGE_SETUP_FAILURE_STATUS } from "./program-ending.js";
import { createRelayServer } from "./relay-server.js";
import { runProgram } from "./run-program.js";

function fail(message: string): never {
  process.stderr.write(`paperclip-sandbox bridge: ${message}\n`);
  process.exit(BRIDGE_SETUP_FAILURE_STATUS);
}

// Descriptors the host inherited without close-on-exec (bwrap passes them on) must not
// reach the program. Node's own descriptors are all close-on-exec, so none of them is touched.
closeInheritedDescriptors({ closeSync, readdirSync, readFileSync });
const argv = parseBridgeArgv(process.argv.slice(2));
if (!argv) fail("usage: bridge.cjs <socket> <program> [args…]");
const relay = createRelayServer(argv.socketPath);
relay.server.on("error", (error) =>
  fail(`cannot listen on 127.0.0.1:${SANDBOX_PROXY_PORT}: ${error.message}`),
);
relay.server.listen(SANDBOX_PROXY_PORT, "127.0.0.1", () =>
  runProgram(argv.executable, argv.args, () => relay.close()),
);
