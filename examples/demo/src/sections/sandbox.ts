import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import {
  createNetworkProxyTempDir,
  type NetworkDecision,
  runChildProcess,
} from "@paperclipai/adapter-utils/local-process-sandbox";
import { PaperclipError } from "@paperclipai/errors";
import { explain } from "@paperclipai/errors/registry";
import type { TourSection } from "../tour-context.js";

async function loopback(body: string): Promise<{ server: Server; port: number }> {
  const server = createServer((_request, response) => response.end(body));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Runs `script` with Node inside the sandbox: the workspace only, network through the allowlist proxy. */
function inSandbox(
  script: string,
  workspace: string,
  allow: string[],
  onDecision?: (decision: NetworkDecision) => void,
) {
  return runChildProcess("demo", process.execPath, ["-e", script], {
    cwd: workspace,
    env: {},
    timeoutSec: 20,
    graceSec: 1,
    onLog: async () => {},
    localProcessSandbox: {
      workspaceDir: workspace,
      filesystemScope: "workspace",
      networkScope: "allowlist",
      networkAllowlist: allow,
      onNetworkDecision: onDecision,
    },
  });
}

const GET_VIA_PROXY = `
const http = require("node:http");
const proxy = new URL(process.env.HTTP_PROXY);
const get = (url) => new Promise((resolve, reject) => {
  http.get({ hostname: proxy.hostname, port: proxy.port, path: url }, (response) => {
    let body = "";
    response.on("data", (chunk) => (body += chunk));
    response.on("end", () => resolve(response.statusCode + " " + body.trim()));
  }).on("error", reject);
});`;

export const sandboxSection: TourSection = async (context) => {
  const root = await mkdtemp("/tmp/paperclip-demo-");
  const workspace = path.join(root, "workspace");
  await mkdir(workspace);
  const allowed = await loopback("hello from the allowed host");
  const other = await loopback("you should never see this");
  try {
    await context.step(
      "A sandboxed command reaches an allowed loopback host and is denied another",
      async () => {
        const script = `${GET_VIA_PROXY}
        (async () => {
          console.log("allowed: " + (await get("http://127.0.0.1:${allowed.port}/")));
          console.log("other:   " + (await get("http://127.0.0.1:${other.port}/")));
        })();`;
        const result = await inSandbox(script, workspace, [`127.0.0.1:${allowed.port}`], (decision) =>
          context.log(
            `proxy decision: ${decision.decision} ${decision.host}:${decision.port} (${decision.reason})`,
          ),
        );
        for (const line of result.stdout.trim().split("\n")) context.log(line);
        if (
          result.exitCode !== 0 ||
          !result.stdout.includes("allowed: 200") ||
          !result.stdout.includes("other:   403")
        ) {
          throw new Error(
            `unexpected sandbox output (exit ${result.exitCode}): ${result.stdout}${result.stderr}`,
          );
        }
        return "allowed host answered 200; the other got the proxy's 403 network_target_denied";
      },
    );

    await context.step("An escape attempt is refused", async () => {
      const secret = path.join(root, "host-secret.txt");
      await writeFile(secret, "host secret");
      const script = `
        const fs = require("node:fs");
        const net = require("node:net");
        let read; try { fs.readFileSync(${JSON.stringify(secret)}); read = "READ IT"; } catch (e) { read = e.code; }
        const s = net.connect(${other.port}, "127.0.0.1", () => { console.log(read + " CONNECTED"); process.exit(1); });
        s.on("error", (e) => console.log(read + " " + e.code));`;
      const result = await inSandbox(script, workspace, [`127.0.0.1:${allowed.port}`]);
      const [readOutcome, connectOutcome] = result.stdout.trim().split(" ");
      context.log(`read ${secret} (outside the workspace): ${readOutcome}`);
      context.log(`direct connect to 127.0.0.1:${other.port}, bypassing the proxy: ${connectOutcome}`);
      if (readOutcome !== "ENOENT" || connectOutcome !== "ECONNREFUSED")
        throw new Error(`escape not refused: ${result.stdout}`);
      return "the host file does not exist in the sandbox and direct egress is refused";
    });

    await context.step("ERR_SANDBOX_PROXY_SOCKET_DIR, produced for real and explained", async () => {
      // Two real failures: a base where mkdtemp fails, and a writable base so deep that
      // <base>/paperclip-network-sandbox-XXXXXX/proxy.sock exceeds Linux's 107 bytes.
      const deep = path.join(
        root,
        ...Array.from({ length: 4 }, () => "a-very-long-temporary-directory-name"),
      );
      await mkdir(deep, { recursive: true });
      try {
        await createNetworkProxyTempDir({ candidates: ["/proc/paperclip-demo", deep] });
        throw new Error("expected ERR_SANDBOX_PROXY_SOCKET_DIR");
      } catch (error) {
        if (!PaperclipError.is(error, "ERR_SANDBOX_PROXY_SOCKET_DIR")) throw error;
        context.log(`${error.code}: ${error.message}`);
        for (const attempt of error.details.attempts as { baseDir: string; code: string; reason: string }[]) {
          context.log(
            `  ${attempt.baseDir.length > 48 ? `${attempt.baseDir.slice(0, 45)}...` : attempt.baseDir}: ${attempt.code}, ${attempt.reason}`,
          );
        }
        context.log(`  cause: ${(error.cause as Error).message.slice(0, 90)}...`);
        const page = explain(error.code);
        const solutions = page
          .slice(page.indexOf("## Solutions"), page.indexOf("## Prevention"))
          .trim()
          .split("\n");
        for (const line of solutions.slice(0, 5))
          context.log(line.length > 150 ? `${line.slice(0, 147)}...` : line);
        return "both candidates failed, each with its own reason; explain() gives the fixes";
      }
    });
  } finally {
    allowed.server.close();
    other.server.close();
    await rm(root, { recursive: true, force: true });
  }
};
