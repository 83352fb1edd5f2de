import { describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "./build-spawn-target.js";

const input = (options: Record<string, unknown>) => ({
  executable: "/bin/true",
  args: [],
  cwd: "/ws",
  options: { workspaceDir: "/ws", ...options },
});

describe("buildLocalProcessSandboxSpawnTarget refusals (before anything is created)", () => {
  it("refuses non-Linux platforms", async () => {
    const descriptor = Object.getOwnPropertyDescriptor(process, "platform")!;
    Object.defineProperty(process, "platform", { ...descriptor, value: "darwin" });
    try {
      await expect(
        buildLocalProcessSandboxSpawnTarget(input({ networkScope: "deny" })),
      ).rejects.toMatchObject({
        code: "ERR_SANDBOX_UNSUPPORTED_PLATFORM",
        message: "Local process filesystem and network scopes are currently supported only on Linux.",
      });
    } finally {
      Object.defineProperty(process, "platform", descriptor);
    }
  });

  it("refuses a sandbox without any scope", async () => {
    await expect(buildLocalProcessSandboxSpawnTarget(input({}))).rejects.toMatchObject({
      code: "ERR_SANDBOX_SCOPE_REQUIRED",
      message: "Local process sandbox requires a filesystem or network scope.",
    });
  });

  it("validates scope values with the parsers' codes", async () => {
    await expect(
      buildLocalProcessSandboxSpawnTarget(input({ networkScope: "public" })),
    ).rejects.toMatchObject({
      code: "ERR_SANDBOX_NETWORK_SCOPE_INVALID",
    });
    await expect(
      buildLocalProcessSandboxSpawnTarget(input({ filesystemScope: "workspace", workspaceDir: "relative" })),
    ).rejects.toMatchObject({
      code: "ERR_SANDBOX_PATH_NOT_ABSOLUTE",
      message: "Sandbox workspaceDir must be an absolute path.",
    });
  });

  it("refuses an allowlist with no usable rule before creating a directory", async () => {
    await expect(
      buildLocalProcessSandboxSpawnTarget(
        input({
          networkScope: "allowlist",
          networkTrustedUrls: ["file:///x"],
          proxySocketDirCandidates: ["/nonexistent"],
        }),
      ),
    ).rejects.toMatchObject({ code: "ERR_SANDBOX_NETWORK_ALLOWLIST_EMPTY" });
  });
});
