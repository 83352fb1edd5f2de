// The program the sandbox suite runs inside each sandbox to measure its network path.

/**
 * The in-sandbox client (CommonJS). `throughput`: `count` transfers, each one
 * tunnel (or a direct connection) reading TRANSFER_MIB from the source server,
 * timed from the established tunnel to the last byte. `latency`: `count`
 * batches, each CONCURRENT_TUNNELS concurrent tunnels timed from connect() to
 * the first echoed byte.
 */
export const TUNNEL_CLIENT_SOURCE = `"use strict";
const net = require("node:net");
const [mode, via, port, amount, count] = process.argv.slice(2);
// "direct": the target itself; "plain:<port>": a relay that forwards to it; else the proxy URL (CONNECT).
const plainPort = via === "direct" ? Number(port) : via.startsWith("plain:") ? Number(via.slice(6)) : null;
const proxy = plainPort === null ? new URL(via) : null;
function open(onReady) {
  const socket = proxy ? net.connect(Number(proxy.port), proxy.hostname) : net.connect(plainPort, "127.0.0.1");
  socket.setNoDelay(true);
  if (!proxy) { socket.once("connect", () => onReady(socket, Buffer.alloc(0))); return socket; }
  socket.once("connect", () => socket.write("CONNECT 127.0.0.1:" + port + " HTTP/1.1\\r\\nHost: 127.0.0.1:" + port + "\\r\\n\\r\\n"));
  let head = Buffer.alloc(0);
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\\r\\n\\r\\n");
    if (end === -1) return;
    socket.off("data", onData);
    if (!head.subarray(0, 12).toString().startsWith("HTTP/1.1 200")) throw new Error("tunnel refused: " + head.toString());
    onReady(socket, head.subarray(end + 4));
  };
  socket.on("data", onData);
  return socket;
}
function throughputOnce(bytes) {
  return new Promise((resolve, reject) => {
    const s = open((socket, rest) => {
      const started = process.hrtime.bigint();
      let received = rest.length;
      socket.on("data", (chunk) => {
        received += chunk.length;
        if (received >= bytes) { resolve(Number(process.hrtime.bigint() - started) / 1e6); socket.destroy(); }
      });
    });
    s.on("error", reject);
  });
}
function latencyAll(count) {
  const started = process.hrtime.bigint();
  return Promise.all(Array.from({ length: count }, () => new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const s = open((socket) => {
      socket.once("data", () => { resolve(Number(process.hrtime.bigint() - t0) / 1e6); socket.destroy(); });
      socket.write("x");
    });
    s.on("error", reject);
  }))).then((each) => ({ each, wallMs: Number(process.hrtime.bigint() - started) / 1e6 }));
}
(async () => {
  const results = [];
  for (let i = 0; i < Number(count); i += 1)
    results.push(mode === "throughput" ? await throughputOnce(Number(amount)) : await latencyAll(Number(amount)));
  console.log(JSON.stringify(results));
})().catch((error) => { console.error(String(error)); process.exit(3); });
`;
