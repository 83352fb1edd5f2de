import { SANDBOX_PROXY_PORT } from "../bwrap/system-paths.js";
import { forwardInto, relayReadsInto } from "../proxy/relay-reads.js";
import { closeInheritedDescriptors } from "./close-inherited-descriptors.js";
import { BRIDGE_DEFERRED_ENV_KEYS, BRIDGE_DEFERRED_ENV_PREFIX } from "./deferred-env.js";

/** Exit status of the bridge itself when it cannot listen (the program never started). */
export const BRIDGE_LISTEN_FAILURE_STATUS = 125;

/**
 * The in-sandbox bridge, run as `node bridge.cjs <socket> <program> [args…]`.
 * It listens on 127.0.0.1:31337 inside the sandbox's network namespace and relays
 * each connection to the host proxy's Unix socket; only once it listens does it
 * start the program (in its own process group, so a signal reaches it once: from
 * the bridge). Every catchable signal is forwarded, and the bridge ends with the
 * program's exact status: same exit code, or the same signal re-raised.
 */
export const BRIDGE_SOURCE = `"use strict";
const net = require("node:net");
const { spawn } = require("node:child_process");

const [socketPath, executable, ...args] = process.argv.slice(2);
// Descriptors the host inherited without close-on-exec (bwrap passes them on) must not
// reach the program: each one above stdio that would survive an exec is closed first.
// Node's own descriptors are all close-on-exec, so none of them is touched.
${closeInheritedDescriptors.toString()}
closeInheritedDescriptors(require("node:fs"));
const FORWARDED_SIGNALS = [
  "SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGWINCH",
  "SIGCONT", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGVTALRM", "SIGPROF", "SIGXCPU", "SIGXFSZ",
];
const sockets = new Set();

// Proxy-to-program bytes are relayed from a per-connection read buffer, program-to-proxy
// chunks forwarded as they come (the proxy's own tunnel functions).
${relayReadsInto.toString()}

${forwardInto.toString()}

// When one leg closes the other follows: at once after an error, else once it has flushed.
function follow(leg, hadError) {
  if (hadError || leg.writableFinished) return leg.destroy();
  if (!leg.writableEnded) leg.end();
  leg.once("finish", () => leg.destroy());
}

const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
  const upstream = net.connect({ path: socketPath, allowHalfOpen: true, onread: relayReadsInto(client, () => upstream) });
  sockets.add(client);
  sockets.add(upstream);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
  client.on("close", (hadError) => { sockets.delete(client); follow(upstream, hadError); });
  upstream.on("close", (hadError) => { sockets.delete(upstream); follow(client, hadError); });
  upstream.on("end", () => { if (!client.writableEnded && !client.destroyed) client.end(); });
  forwardInto(client, upstream);
});

server.on("error", (error) => {
  process.stderr.write("paperclip-sandbox bridge: cannot listen on 127.0.0.1:${SANDBOX_PROXY_PORT}: " + error.message + "\\n");
  process.exit(${BRIDGE_LISTEN_FAILURE_STATUS});
});

// Variables the spawn helper kept from Node's own start of the bridge (deferred-env.ts) go back to the program.
function programEnv() {
  const env = { ...process.env };
  for (const key of ${JSON.stringify(BRIDGE_DEFERRED_ENV_KEYS)}) {
    const carrier = "${BRIDGE_DEFERRED_ENV_PREFIX}" + key;
    if (carrier in env) {
      env[key] = env[carrier];
      delete env[carrier];
    }
  }
  return env;
}

server.listen(${SANDBOX_PROXY_PORT}, "127.0.0.1", () => {
  const child = spawn(executable, args, { stdio: "inherit", detached: true, env: programEnv() });
  const forward = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      try { child.kill(signal); } catch {}
    }
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, () => forward(signal));
  child.on("error", (error) => {
    process.stderr.write("paperclip-sandbox bridge: cannot start " + executable + ": " + error.message + "\\n");
    process.exit(error.code === "ENOENT" ? 127 : 126);
  });
  child.on("exit", (code, signal) => {
    server.close();
    for (const socket of sockets) socket.destroy();
    if (signal) {
      for (const name of FORWARDED_SIGNALS) process.removeAllListeners(name);
      process.kill(process.pid, signal);
      // Signals whose default action is not to terminate (or that Node ignores) end here.
      setTimeout(() => process.exit(128 + (require("node:os").constants.signals[signal] || 0)), 100);
      return;
    }
    process.exit(code === null ? 1 : code);
  });
});
`;
