import { afterEach, describe, expect, it } from "vitest";
import { cleanupAll, runEntryScriptInNamespaces, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * The proxy refuses an allowlisted name that answers one of the host's own addresses
 * (`blocked_address_host`), but it knew them only from `os.networkInterfaces()`, which lists
 * the addresses of interfaces that are up and have a carrier. The kernel delivers more to
 * this host: an address on an interface never brought up, one on an interface up without a
 * carrier (a `docker0` bridge before its first container, a tap nobody opened), and every
 * address of a `local` route (`ip route add local 203.0.113.0/24 dev lo`, AnyIP), and the
 * anycast addresses of a host forwarding IPv6 (`<prefix>::`, in `/proc/net/anycast6` only).
 * Each case runs in a private network namespace where a service listens on every address and
 * counts the connections it accepts; a public address that is not this host's stays allowed,
 * also beside a transparent proxy's policy table (`local 0.0.0.0/0` and `local ::/0 dev lo
 * table 100`, for the packets its rule marks), which once made every address the host's.
 */

const SCRIPT = `
  const net = await import("node:net");
  const path = await import("node:path");
  const { startSandboxNetworkProxy } = await import(process.env.ENTRY);
  const { dir, addresses } = JSON.parse(process.env.SPEC);
  let accepted = 0;
  const service = net.createServer((socket) => { accepted += 1; socket.end("host service\\n"); });
  await new Promise((resolve) => service.listen(8080, "::", resolve));
  const report = {};
  for (const address of addresses) {
    const reasons = [];
    const proxy = await startSandboxNetworkProxy({
      socketPath: path.join(dir, "proxy.sock"),
      allowlist: ["self.test:8080"],
      resolver: async () => [{ address, family: address.includes(":") ? 6 : 4 }],
      onNetworkDecision: (decision) => reasons.push(decision.reason),
    });
    const before = accepted;
    const status = await new Promise((resolve) => {
      const socket = net.connect(proxy.socketPath);
      let text = "";
      socket.on("data", (chunk) => { text += chunk; if (text.includes("host service")) socket.end(); });
      socket.on("close", () => resolve(text.split("\\r\\n")[0]));
      socket.end("CONNECT self.test:8080 HTTP/1.1\\r\\n\\r\\n");
    });
    await proxy.close();
    report[address] = { status, reasons, reached: accepted - before };
  }
  service.close();
  process.stdout.write(JSON.stringify(report));`;

const PUBLIC = ["8.8.4.4", "2001:4860:4860::8844"];

const REFUSED = { status: "HTTP/1.1 403 Forbidden", reasons: ["blocked_address_host"], reached: 0 };

describe("an allowlisted name answering an address the kernel delivers to this host", () => {
  it("is refused wherever that address lives; a public address elsewhere is not", async () => {
    const cases: Record<string, string> = {
      "9.9.9.1": "on a second interface, up",
      "9.9.9.2": "on an interface never brought up",
      "9.9.9.3": "on an interface up without a carrier (docker0 before its first container)",
      "9.9.8.77": "inside an IPv4 local route (AnyIP)",
      "2a00:1::3": "IPv6, on a second interface, up",
      "2a00:2::5": "inside an IPv6 local route (AnyIP)",
      "2a00:1::": "the subnet-router anycast of a prefix, IPv6 forwarding on",
    };
    const setup = [
      "ip link set lo up",
      "ip link add pcv0 type veth peer name pcv1",
      "ip addr add 9.9.9.1/32 dev pcv0",
      "echo 1 > /proc/sys/net/ipv6/conf/all/forwarding",
      "ip -6 addr add 2a00:1::3/64 dev pcv0 nodad",
      "ip link set pcv0 up",
      "ip link set pcv1 up",
      "ip tuntap add pctap0 mode tap",
      "ip addr add 9.9.9.2/32 dev pctap0",
      "ip tuntap add pctap1 mode tap",
      "ip addr add 9.9.9.3/32 dev pctap1",
      "ip link set pctap1 up",
      "ip route add local 9.9.8.0/24 dev lo",
      "ip -6 route add local 2a00:2::/64 dev lo",
      // A transparent proxy's (Clash/mihomo, v2ray, Cilium TPROXY): only marked packets see table 100.
      "ip rule add fwmark 1 lookup 100",
      "ip -6 rule add fwmark 1 lookup 100",
      "ip route add local 0.0.0.0/0 dev lo table 100",
      "ip -6 route add local ::/0 dev lo table 100",
    ];
    // 8.8.4.4 and 2001:4860:4860::8844 are public and not this namespace's: allowed, and
    // unreachable (no route the proxy's unmarked connection takes).
    const result = await runEntryScriptInNamespaces(setup, SCRIPT, {
      dir: scratchDir("pc-sbx-host-own-"),
      addresses: [...Object.keys(cases), ...PUBLIC],
    });
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    for (const [address, where] of Object.entries(cases)) {
      expect(report[address], `${address}, ${where}`).toEqual(REFUSED);
    }
    for (const address of PUBLIC) {
      expect(report[address], address).toEqual({
        status: "HTTP/1.1 502 Bad Gateway",
        reasons: ["allowlist"],
        reached: 0,
      });
    }
  }, 60_000);
});
