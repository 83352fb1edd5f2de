import { writeFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, exec, runEntryScriptInNamespaces, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * One run's name lookups must not starve another's. In a private network and
 * mount namespace (so the name server is ours), `/etc/resolv.conf` names a
 * server that never answers. An attacker run floods its proxy with CONNECTs to
 * an allowlisted name (its lookups stay unanswered); once the silent server has
 * seen its queries, a victim run asks for its own trusted host (`localhost`,
 * from /etc/hosts). The victim's attempt must be decided, and answered, before
 * any of the attacker's: with one shared lookup pool it waited behind them.
 */

const SCRIPT = `
const sandbox = await import(process.env.ENTRY);
const dgram = await import("node:dgram");
const http = await import("node:http");
const fs = await import("node:fs");
const path = await import("node:path");
const spec = JSON.parse(process.env.SPEC);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (condition) => { while (!condition()) await sleep(20); };

const nameServer = dgram.createSocket("udp4");
let queries = 0;
nameServer.on("message", () => (queries += 1));
await new Promise((resolve) => nameServer.bind(53, "127.0.0.1", resolve));
const trusted = http.createServer((request, response) => response.end("victim-ok"));
await new Promise((resolve) => trusted.listen(0, "127.0.0.1", resolve));
const trustedPort = trusted.address().port;

const events = [];
const run = (name, script, options) =>
  sandbox.runChildProcess(name, process.execPath, ["-e", script], {
    cwd: options.workspaceDir, env: {}, timeoutSec: 120, graceSec: 1, onLog: async () => {},
    localProcessSandbox: { command: "/usr/bin/bwrap", ...options,
      onNetworkDecision: (decision) => events.push(name + " " + decision.decision + " " + decision.host) },
  });

const victim = run("victim", \`
  const fs = require("node:fs"), http = require("node:http");
  const go = () => http.get({ host: "127.0.0.1", port: 31337, path: "http://localhost:\${trustedPort}/" }, (response) => {
    let body = ""; response.on("data", (chunk) => (body += chunk)); response.on("end", () => console.log(response.statusCode + " " + body));
  }).on("error", (error) => console.log("error " + error.code));
  const wait = () => (fs.existsSync("go") ? go() : setTimeout(wait, 20));
  fs.writeFileSync("ready", ""); wait();\`,
  { workspaceDir: spec.victimWs, filesystemScope: "workspace", networkScope: "allowlist",
    networkTrustedUrls: ["http://localhost:" + trustedPort] });
await until(() => fs.existsSync(path.join(spec.victimWs, "ready")));

const attacker = run("attacker", \`
  const fs = require("node:fs"), net = require("node:net");
  for (let i = 0; i < 16; i += 1) {
    const socket = net.connect(31337, "127.0.0.1", () => socket.write("CONNECT slow.example.com:443 HTTP/1.1\\\\r\\\\nHost: slow.example.com:443\\\\r\\\\n\\\\r\\\\n"));
    socket.on("error", () => {}); socket.on("data", () => {});
  }
  const wait = () => (fs.existsSync("stop") ? process.exit(0) : setTimeout(wait, 20));
  wait();\`,
  { workspaceDir: spec.attackerWs, filesystemScope: "workspace", networkScope: "allowlist",
    networkAllowlist: ["slow.example.com"], networkLimits: { dnsTimeoutMs: 60000, dnsTries: 1 } });
await until(() => queries >= 4);

fs.writeFileSync(path.join(spec.victimWs, "go"), "");
const victimResult = await victim;
const decidedBeforeVictimAnswer = [...events];
fs.writeFileSync(path.join(spec.attackerWs, "stop"), "");
await attacker;
nameServer.close();
trusted.close();
console.log(JSON.stringify({ victim: victimResult.stdout.trim(), decidedBeforeVictimAnswer }));
`;

describe("name resolution per run", () => {
  it("a run whose name server stays silent does not hold up another run's lookup", async () => {
    const root = await scratchDir("pc-dns-");
    const resolvConf = path.join(root, "resolv.conf");
    await writeFile(resolvConf, "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n");
    const victimWs = path.join(root, "victim");
    const attackerWs = path.join(root, "attacker");
    await exec("mkdir", [victimWs, attackerWs]);
    const result = await runEntryScriptInNamespaces(
      ["ip link set lo up", `mount --bind ${shellQuote(resolvConf)} /etc/resolv.conf`],
      SCRIPT,
      { victimWs, attackerWs },
      ["--mount", "--net", "--propagation", "private"],
    );
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout) as { victim: string; decidedBeforeVictimAnswer: string[] };
    expect(report.victim).toBe("200 victim-ok");
    // The victim's attempt was decided while every one of the attacker's was still waiting for DNS.
    expect(report.decidedBeforeVictimAnswer).toEqual(["victim allow localhost"]);
  }, 60_000);
});
