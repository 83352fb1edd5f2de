import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SANDBOX_PROXY_PORT } from "../src/bwrap/system-paths.js";
import { classifyAddress } from "../src/proxy/address-class.js";
import { parseAllowlistEntry } from "../src/proxy/allowlist-entry.js";
import { canonicalizeHost } from "../src/proxy/canonical-host.js";
import { parseConnectAuthority } from "../src/proxy/connect-authority.js";
import type { NetworkResolver } from "../src/proxy/index.js";
import type { NetworkDecision } from "../src/proxy/proxy-context.js";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { COURIER_UNREACHABLE_MARK } from "../src/spawn/spawn-failure.js";
import { runInSandbox } from "./attack-support.js";
import { closeAll, rawExchange, startProxy } from "./proxy-support.js";
import { cleanupAll, runEntryScriptInNamespaces, runNodeInSandbox, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);
afterEach(closeAll);

type Scope = Omit<LocalProcessSandboxOptions, "workspaceDir">;

/** Runs a shell script in a sandbox of a fresh workspace; the run's promise, as the caller sees it. */
function runScript(scope: Scope, script: string) {
  return runInSandbox(scratchDir("pc-sbx-readback-"), scope, "/bin/sh", ["-c", script]);
}

describe("what the host reads back from a sandboxed program", () => {
  // The native bridge that cannot reach its courier prints a line and exits 125 without
  // starting the program; the host turned every exit 125 with that line on stderr into
  // ERR_SANDBOX_COURIER_UNREACHABLE ("did not start the program"). The program writes the
  // same stderr and picks its own status: after doing its work it could pass itself off as a
  // run that never started (its result and output dropped, the caller told to retry).
  const FORGED = `echo done-its-work; printf '%sfake\\n' '${COURIER_UNREACHABLE_MARK}' >&2; exit 125`;
  const SCOPES: Record<string, Scope> = {
    workspaceDeny: { filesystemScope: "workspace", networkScope: "deny" },
    networkOnlyAllowlistNativeBridge: {
      networkScope: "allowlist",
      networkAllowlist: ["127.0.0.1:9"],
      networkBridge: "native",
    },
  };
  for (const [name, scope] of Object.entries(SCOPES)) {
    it(`a program cannot pass its own exit off as an unreachable courier: ${name}`, async () => {
      const result = await runScript(scope, FORGED);
      expect(result.exitCode).toBe(125);
      expect(result.stdout).toBe("done-its-work\n");
      expect(result.stderr).toContain(COURIER_UNREACHABLE_MARK);
    }, 60_000);
  }
});

describe("the courier token stays out of the program's reach", () => {
  it("no process file the program can read names it: not the bridge's environ, not bwrap's argv", async () => {
    // Every cmdline and environ the program can open, and its own env, searched for the
    // variable that carries the token (bwrap's --setenv puts it in bwrap's argv too); the
    // bracket keeps the search's own argv from matching.
    const search = `for f in /proc/[0-9]*/cmdline /proc/[0-9]*/environ /proc/self/environ; do
      if tr '\\0' '\\n' < "$f" 2>/dev/null | grep -q 'PAPERCLIP_SANDBOX_COURIE[R]'; then echo "found in $f"; fi
    done; env | grep -c 'PAPERCLIP_SANDBOX_COURIE[R]' || true`;
    const result = await runScript(
      { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:9"], networkBridge: "native" },
      search,
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("0\n");
  }, 60_000);
});

describe("the target hosts the proxy reports", () => {
  // Node's parser passes bytes 0x80-0xff of a request-target or a `Host` header on as
  // U+0080-U+00FF, and a denied target was reported to `onNetworkDecision` as written:
  // U+009B is CSI and U+009D OSC on a UTF-8 terminal, so the program could clear the
  // screen of, retitle or set the clipboard of whoever reads the host's decision log.
  it("carry no control character the sandbox wrote, whichever way it sent them", async () => {
    const ws = scratchDir("pc-sbx-readback-");
    const decisions: NetworkDecision[] = [];
    const requests = [
      "CONNECT a\x9b2Jb:443 HTTP/1.1\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: c\x9d0;pwned\x9cd\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
      "GET ftp://e\x9b31mf/ HTTP/1.1\r\n\r\n",
    ];
    const script = `const net = require("node:net");
      const send = (text) => new Promise((resolve) => {
        const socket = net.connect(${SANDBOX_PROXY_PORT}, "127.0.0.1");
        let answer = "";
        socket.on("data", (chunk) => { answer += chunk.toString("latin1"); });
        socket.on("error", () => {});
        socket.on("close", () => resolve(answer.split("\\r\\n")[0]));
        socket.end(Buffer.from(text, "latin1"));
      });
      (async () => { for (const text of ${JSON.stringify(requests)}) console.log(await send(text)); })();`;
    const result = await runNodeInSandbox(script, {
      workspaceDir: ws,
      filesystemScope: "workspace",
      networkScope: "allowlist",
      networkAllowlist: ["127.0.0.1:9"],
      onNetworkDecision: (decision) => decisions.push(decision),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    // The parser refuses such a byte in a request-target (400, no host read), not in a header.
    expect(result.stdout.split("\n").filter(Boolean)).toEqual([
      "HTTP/1.1 400 Bad Request",
      "HTTP/1.1 400 Bad Request",
      "HTTP/1.1 400 Bad Request",
    ]);
    const hosts = decisions.map((decision) => decision.host);
    expect(hosts).toEqual(["", "c\\u009d0;pwned\\u009cd", ""]);
    for (const host of hosts) expect(host).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  }, 60_000);
});

describe("names the sandbox chose, resolved by the proxy", () => {
  /** The proxy's verdict on one CONNECT and one plain GET of `host`, whose name answers `addresses`. */
  async function verdicts(allowlist: string[], target: string, addresses: string[]) {
    const decisions: NetworkDecision[] = [];
    const resolver: NetworkResolver = async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    const proxy = await startProxy({
      allowlist,
      trustedUrls: [],
      resolver,
      onNetworkDecision: (decision) => decisions.push(decision),
    });
    const connect = await rawExchange(proxy.socketPath, `CONNECT ${target}:80 HTTP/1.1\r\n\r\n`);
    const get = await rawExchange(proxy.socketPath, `GET http://${target}/ HTTP/1.1\r\n\r\n`);
    return {
      statuses: [connect.response.split("\r\n")[0], get.response.split("\r\n")[0]],
      reasons: decisions.map((decision) => decision.reason),
    };
  }

  // SIIT's IPv4-translated ::ffff:0:0:0/96 was "public": only global unicast (2000::/3) is.
  // A stateless translator on the host's network carries ::ffff:0:7f00:1 to 127.0.0.1.
  it("an allowlisted name answering an address outside IPv6 global unicast is refused", async () => {
    for (const address of ["::ffff:0:7f00:1", "::ffff:0:a9fe:a9fe", "4000::1"]) {
      const seen = await verdicts(["rebind.test"], "rebind.test", [address]);
      expect(seen, address).toEqual({
        statuses: ["HTTP/1.1 403 Forbidden", "HTTP/1.1 403 Forbidden"],
        reasons: ["blocked_address_reserved", "blocked_address_reserved"],
      });
    }
  });

  // Held: every other spelling of loopback, the metadata address and the unspecified address
  // a hostile name server can answer, alone or behind a public address.
  it.each([
    [["127.0.0.1"], "loopback"],
    [["::ffff:127.0.0.1"], "loopback"],
    [["::1"], "loopback"],
    [["169.254.169.254"], "link_local"],
    [["64:ff9b::a9fe:a9fe"], "link_local"],
    [["2002:7f00:1::1"], "loopback"],
    [["0.0.0.0"], "unspecified"],
    [["::"], "unspecified"],
    [["93.184.215.14", "127.0.0.1"], "loopback"],
  ])("an allowlisted name answering %j is refused as %s", async (addresses, addressClass) => {
    const seen = await verdicts(["rebind.test"], "rebind.test", addresses);
    expect(seen.statuses).toEqual(["HTTP/1.1 403 Forbidden", "HTTP/1.1 403 Forbidden"]);
    expect(seen.reasons).toEqual([`blocked_address_${addressClass}`, `blocked_address_${addressClass}`]);
  });

  // Held: a name rule never admits an IP literal target, in any notation, nor the reverse.
  it.each([
    "2130706433",
    "0x7f.1",
    "0177.0.0.1",
    "[::ffff:7f00:1]",
    "127.0.0.1.",
    "[::ffff:169.254.169.254]",
    "0",
    "[::]",
    "localhost",
    "rebind.test.evil",
  ])("an IP literal or another name, %s, is not the allowlisted name", async (target) => {
    const seen = await verdicts(["rebind.test"], target, ["127.0.0.1"]);
    expect(seen.statuses).toEqual(["HTTP/1.1 403 Forbidden", "HTTP/1.1 403 Forbidden"]);
    expect(seen.reasons).toEqual(["not_allowlisted", "not_allowlisted"]);
  });
});

describe("workspace paths the host hands in", () => {
  // Held: bwrap takes each path as one argument, and the mount table's octal escapes are
  // read back; a name with a newline, a tab, a leading dash, a backslash, a colon or a C1
  // byte is still exactly the workspace, and its parent stays out of reach.
  const NAMES = ["with space", "nl\nname", "-leading", "tab\tx", "back\\slash", "ws:colon", "x\u009bq"];
  const SCOPES: Record<string, Scope> = {
    workspaceDeny: { filesystemScope: "workspace", networkScope: "deny" },
    networkOnlyAllowlist: { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:9"] },
  };
  for (const [scopeName, scope] of Object.entries(SCOPES)) {
    it(`a workspace named with hostile characters is the scope, no more: ${scopeName}`, async () => {
      const base = scratchDir("pc-sbx-ws-names-");
      writeFileSync(path.join(base, "outside"), "host secret");
      for (const name of NAMES) {
        const ws = path.join(base, name);
        mkdirSync(ws);
        const result = await runInSandbox(ws, scope, "/bin/sh", [
          "-c",
          "pwd; echo in > inws; cat ../outside; echo x > ../planted",
        ]);
        expect(result.stdout.startsWith(`${ws}\n`), JSON.stringify(name)).toBe(true);
        expect(result.stdout, JSON.stringify(name)).not.toContain("host secret");
        expect(readFileSync(path.join(ws, "inws"), "utf8")).toBe("in\n");
        expect(existsSync(path.join(base, "planted")), JSON.stringify(name)).toBe(false);
      }
    }, 120_000);
  }
});

describe("an allowlisted name that answers one of the host's own addresses", () => {
  // A public address on one of the host's interfaces passed the SSRF check as "public", so a
  // name the sandbox may reach, answering it, opened the host's own services on that port (a
  // server bound to 0.0.0.0, as most are). Run in a private network namespace whose loopback
  // carries a public IPv4 and IPv6 address, with a service listening on every address.
  const SCRIPT = `
    const net = await import("node:net");
    const path = await import("node:path");
    const { startSandboxNetworkProxy } = await import(process.env.ENTRY);
    const { dir, address } = JSON.parse(process.env.SPEC);
    const service = net.createServer((socket) => socket.end("host service\\n"));
    await new Promise((resolve) => service.listen(8080, "::", resolve));
    const reasons = [];
    const proxy = await startSandboxNetworkProxy({
      socketPath: path.join(dir, "proxy.sock"),
      allowlist: ["self.test:8080"],
      resolver: async () => [{ address, family: address.includes(":") ? 6 : 4 }],
      onNetworkDecision: (decision) => reasons.push(decision.reason),
    });
    const answer = await new Promise((resolve) => {
      const socket = net.connect(proxy.socketPath);
      let text = "";
      socket.on("data", (chunk) => { text += chunk; if (text.includes("host service")) socket.end(); });
      socket.on("close", () => resolve(text.split("\\r\\n")[0]));
      socket.end("CONNECT self.test:8080 HTTP/1.1\\r\\n\\r\\n");
    });
    await proxy.close();
    service.close();
    process.stdout.write(JSON.stringify({ answer, reasons }));`;

  it.each(["1.2.3.4", "2001:4860::7"])(
    "is refused: %s",
    async (address) => {
      const dir = scratchDir("pc-sbx-host-self-");
      const setup = [
        "ip link set lo up",
        "ip addr add 1.2.3.4/32 dev lo",
        "ip addr add 2001:4860::7/128 dev lo",
      ];
      const result = await runEntryScriptInNamespaces(setup, SCRIPT, { dir, address });
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toEqual({
        answer: "HTTP/1.1 403 Forbidden",
        reasons: ["blocked_address_host"],
      });
    },
    60_000,
  );
});

describe("the allowlist grammar and target spellings, as pure functions (held)", () => {
  it.each([
    ["2130706433", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0x7F000001", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["127\u30020\u30020\u30021", "127.0.0.1"],
    ["\uff11\uff12\uff17.\uff10.\uff10.\uff11", "127.0.0.1"],
    ["[::ffff:7f00:1]", "127.0.0.1"],
    ["0251.0376.0251.0376", "169.254.169.254"],
    ["0", "0.0.0.0"],
    ["0x", "0.0.0.0"],
    ["[0:0:0:0:0:0:0:1]", "::1"],
    ["[::]", "::"],
  ])("%s is the address %s, never public", (spelling, address) => {
    expect(canonicalizeHost(spelling)?.key).toBe(address);
    expect(classifyAddress(address)).not.toBe("public");
  });

  it.each([
    ["\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54", "localhost"],
    ["local\u00adhost", "localhost"],
    ["LOCALHOST.", "localhost"],
    ["ex\u200bample.com", "example.com"],
  ])("%s folds to the name %s, so it meets the same rule and the same address check", (spelling, name) => {
    expect(canonicalizeHost(spelling)).toEqual({ kind: "domain", key: name });
  });

  it.each([
    "[fe80::1%eth0]",
    "[::1%25lo]",
    "xn--localhost",
    "xn--zz.com",
    "exa%6dple.com",
    "example.com..",
    "09.1.1.1",
  ])("%s is no host at all", (spelling) => {
    expect(canonicalizeHost(spelling)).toBeNull();
  });

  it.each(["::1:80", "[::1%lo]:80", "a:b:80", "example.com:+443", "example.com:443 ", "example.com:65536"])(
    "CONNECT %s is refused",
    (target) => {
      expect(parseConnectAuthority(target).ok).toBe(false);
    },
  );

  it.each(["*.example.com", "http://user@example.com", "example.com:0", "example.com/path", "exa mple.com"])(
    "allowlist entry %s is a coded error",
    (entry) => {
      expect(() => parseAllowlistEntry(entry, 0)).toThrow(
        expect.objectContaining({ code: expect.stringMatching(/^ERR_SANDBOX_NETWORK_ALLOWLIST_ENTRY_/) }),
      );
    },
  );
});
