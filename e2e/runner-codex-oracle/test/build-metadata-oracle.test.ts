import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { type CodexToolchain, OUR_RUNNER_BIN, resolveCodexToolchain } from "../src/toolchain.js";

const run = promisify(execFile);
const CHECK = path.resolve(import.meta.dirname, "../driver/build-metadata-check.mjs");

let tools: CodexToolchain;
beforeAll(async () => {
  tools = await resolveCodexToolchain();
});

async function buildMetadataLine(command: string, args: string[] = []): Promise<string> {
  const { stdout } = await run(command, [...args, "--build-metadata"]);
  return stdout.trimEnd();
}

// The package version is each build's own; every other byte is the contract.
const withoutVersion = (line: string) => line.replace(/"packageVersion":"[^"]*"/, '"packageVersion":"*"');

describe("--build-metadata against upstream's runner and the server's checks", () => {
  it("prints upstream's line, byte for byte but the package version", async () => {
    const [ours, upstream] = await Promise.all([
      buildMetadataLine(tools.node24, [OUR_RUNNER_BIN]),
      buildMetadataLine(tools.upstreamRunner),
    ]);
    expect(withoutVersion(ours)).toBe(withoutVersion(upstream));
  });

  it("passes the server's gate for a remote runner, in every transport mode, as upstream's does", async () => {
    const check = async (line: string) =>
      JSON.parse((await run(tools.node24, [CHECK, tools.serverDir, line])).stdout) as unknown;
    const ours = await check(await buildMetadataLine(tools.node24, [OUR_RUNNER_BIN]));
    expect(ours).toMatchObject({
      modes: {
        dial_ws_loopback: { ok: true },
        dial_wss: { ok: true },
        listen_ws: { ok: true },
      },
      parsed: {
        ok: true,
        value: { binaryContractVersion: 2, nativeExecutionVersion: 1, harnessDriverVersion: 1 },
      },
    });
    const upstream = (await check(await buildMetadataLine(tools.upstreamRunner))) as { modes: unknown };
    expect((ours as { modes: unknown }).modes).toEqual(upstream.modes);
  });
});
