import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { closeAll, rawExchange, startHttpUpstream, startProxy } from "./proxy-support.js";
import {
  canaryServer,
  cleanupAll,
  processesNaming,
  runShellInSandbox,
  scratchDir,
} from "./sandbox-support.js";

afterEach(async () => {
  await closeAll();
  await cleanupAll();
});

/**
 * Attacks of a later red-team pass that no other test scripted and that held: what a program
 * leaves running or claims about itself when its run ends, and request-target spellings the
 * proxy's parsers might read apart. They stay as regression tests.
 */

const SCOPES: Record<string, Omit<LocalProcessSandboxOptions, "workspaceDir">> = {
  workspace: { filesystemScope: "workspace" },
  workspaceDeny: { filesystemScope: "workspace", networkScope: "deny" },
  networkOnlyDeny: { networkScope: "deny" },
  allowlist: { networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"] },
};

describe("what a program leaves when its run ends on its own", () => {
  it("a daemon made with setsid, nohup or a double fork does not outlive a run that exited 0, in any scope", async () => {
    for (const [name, scope] of Object.entries(SCOPES)) {
      const marker = String(700_000 + Math.floor(Math.random() * 100_000));
      const ws = await scratchDir();
      // Each detaches another way from the program's process group and session; none waits.
      const result = await runShellInSandbox(
        [
          `setsid sh -c 'trap "" HUP TERM; exec sleep ${marker}' </dev/null >/dev/null 2>&1 &`,
          `nohup sleep ${marker} </dev/null >/dev/null 2>&1 &`,
          `(sleep ${marker} </dev/null >/dev/null 2>&1 &)`,
          "exit 0",
        ].join("\n"),
        { workspaceDir: ws, ...scope },
        { timeoutSec: 30 },
      );
      expect({ exitCode: result.exitCode, timedOut: result.timedOut }, `${name}: ${result.stderr}`).toEqual({
        exitCode: 0,
        timedOut: false,
      });
      expect(processesNaming(`sleep\0${marker}`), name).toEqual([]);
    }
  }, 90_000);

  it("a program that prints bwrap's or the bridge's failure and exits with their status is a result, not a setup error", async () => {
    const ws = await scratchDir();
    // 125 is the bridge's own status for a courier it cannot reach; 1 is bwrap's for a failed setup.
    for (const [line, status] of [
      ['echo "bwrap: Can\'t bind mount /oldroot/x on /newroot/x: No such file or directory" >&2; exit 1', 1],
      ['echo "paperclip-sandbox-bridge: courier unreachable" >&2; exit 125', 125],
    ] as const) {
      const result = await runShellInSandbox(line, {
        workspaceDir: ws,
        filesystemScope: "workspace",
        networkScope: "allowlist",
        networkAllowlist: ["127.0.0.1:1"],
      });
      expect(result.exitCode, result.stderr).toBe(status);
    }
  }, 60_000);
});

describe("request-target spellings against the proxy", () => {
  it("reaches no other port of an allowed loopback address through any of them", async () => {
    const canary = await canaryServer();
    const allowed = await startHttpUpstream();
    const proxy = await startProxy({ allowlist: [`127.0.0.1:${allowed.port}`], trustedUrls: [] });
    const c = canary.port;
    const a = allowed.port;
    const denied: [string, string][] = [
      ["CONNECT in absolute form", `CONNECT http://127.0.0.1:${c} HTTP/1.1\r\n\r\n`],
      ["CONNECT to a bracketed IPv4", `CONNECT [127.0.0.1]:${c} HTTP/1.1\r\n\r\n`],
      ["CONNECT with two ports", `CONNECT 127.0.0.1:${a}:${c} HTTP/1.1\r\n\r\n`],
      ["CONNECT with a path", `CONNECT 127.0.0.1:${c}/ HTTP/1.1\r\n\r\n`],
      // `0` is 0.0.0.0, which Linux connects to loopback.
      ["CONNECT to 0", `CONNECT 0:${c} HTTP/1.1\r\n\r\n`],
      ["GET to 0", `GET http://0:${c}/ HTTP/1.1\r\n\r\n`],
      ["two ports in the URL", `GET http://127.0.0.1:${a}:${c}/ HTTP/1.1\r\n\r\n`],
      ["an allowed authority after ?", `GET http://127.0.0.1:${c}?@127.0.0.1:${a}/ HTTP/1.1\r\n\r\n`],
      ["scheme-relative, allowed Host", `GET //127.0.0.1:${c}/ HTTP/1.1\r\nHost: 127.0.0.1:${a}\r\n\r\n`],
      ["an uppercase scheme", `GET HTTP://127.0.0.1:${c}/ HTTP/1.1\r\n\r\n`],
      ["a ws: scheme", `GET ws://127.0.0.1:${c}/ HTTP/1.1\r\n\r\n`],
      ["backslashes after the scheme", `GET http:\\\\127.0.0.1:${c}/ HTTP/1.1\r\n\r\n`],
      ["no slashes after the scheme", `GET http:127.0.0.1:${c}/ HTTP/1.1\r\n\r\n`],
      ["one slash after the scheme", `GET http:/127.0.0.1:${c}/ HTTP/1.1\r\n\r\n`],
      // WHATWG ends the authority at `\` and `#`; a parser that did not would see the allowed one.
      ["an allowed authority after \\@", `GET http://127.0.0.1:${c}\\@127.0.0.1:${a}/ HTTP/1.1\r\n\r\n`],
      ["an allowed authority after #@", `GET http://127.0.0.1:${c}#@127.0.0.1:${a}/ HTTP/1.1\r\n\r\n`],
      ["the allowed authority as userinfo", `GET http://127.0.0.1:${a}@127.0.0.1:${c}/ HTTP/1.1\r\n\r\n`],
      [
        "CONNECT with the allowed authority as userinfo",
        `CONNECT 127.0.0.1:${a}@127.0.0.1:${c} HTTP/1.1\r\n\r\n`,
      ],
      // WHATWG decodes these to 127.0.0.1 (percent-decoding, IDNA's full-width digits and dots).
      ["a percent-encoded host", `GET http://%31%32%37.0.0.1:${c}/ HTTP/1.1\r\n\r\n`],
      ["full-width digits", `GET http://\uff11\uff12\uff17.0.0.1:${c}/ HTTP/1.1\r\n\r\n`],
      ["ideographic full stops", `GET http://127\u30020\u30020\u30021:${c}/ HTTP/1.1\r\n\r\n`],
      // URL parsers drop a tab or newline inside the host; this one must not join the halves.
      ["a tab inside the host", `GET http://127.0.\t0.1:${c}/ HTTP/1.1\r\n\r\n`],
      ["a zone id", `GET http://[::1%25lo]:${c}/ HTTP/1.1\r\n\r\n`],
      ["IPv4-compatible IPv6", `GET http://[::127.0.0.1]:${c}/ HTTP/1.1\r\n\r\n`],
      ["NAT64 of loopback", `CONNECT [64:ff9b::7f00:1]:${c} HTTP/1.1\r\n\r\n`],
      [
        "two Content-Lengths hiding a second request",
        `GET http://127.0.0.1:${a}/ HTTP/1.1\r\nContent-Length: 60\r\nContent-Length: 0\r\n\r\nGET http://127.0.0.1:${c}/ HTTP/1.1\r\n\r\n`,
      ],
      [
        "an unknown Transfer-Encoding hiding a second request",
        `GET http://127.0.0.1:${a}/ HTTP/1.1\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\nGET http://127.0.0.1:${c}/ HTTP/1.1\r\n\r\n`,
      ],
    ];
    for (const [name, payload] of denied) {
      const { response } = await rawExchange(proxy.socketPath, payload);
      expect(response, name).toMatch(/^HTTP\/1\.1 4\d\d /);
      expect(response, name).not.toMatch(/canary/);
    }
    // Allowed requests whose headers name the canary: the proxy sets Host from the URL.
    const carried: [string, string][] = [
      [
        "Host listed in Connection",
        `GET http://127.0.0.1:${a}/listed HTTP/1.1\r\nConnection: close, Host\r\nHost: 127.0.0.1:${c}\r\n\r\n`,
      ],
      [
        "a second request in the body after 100-continue",
        `GET http://127.0.0.1:${a}/expect HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 59\r\n\r\nGET http://127.0.0.1:${c}/ HTTP/1.1\r\nHost: 127.0.0.1:${c}\r\n\r\n`,
      ],
    ];
    for (const [name, payload] of carried) {
      const { response } = await rawExchange(proxy.socketPath, payload);
      expect(response, name).toMatch(/allowed-response/);
    }
    expect(allowed.received.map((request) => request.url)).toEqual(["/listed", "/expect"]);
    expect(
      allowed.received.map((request) => request.rawHeaders[request.rawHeaders.indexOf("Host") + 1]),
    ).toEqual([`127.0.0.1:${a}`, `127.0.0.1:${a}`]);
    expect(canary.hits).toEqual([]);
  }, 60_000);
});
