import { tempDirForTest } from "@paperclipai/test-support";
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

describe("buildLocalProcessSandboxSpawnTarget given env: the host's own loader variables", () => {
  const build = async (hostEnv?: Record<string, string>) => {
    const ws = tempDirForTest("pc-build-host-env-");
    const target = await buildLocalProcessSandboxSpawnTarget({
      ...input({ filesystemScope: "workspace", networkScope: "deny" }),
      cwd: ws,
      options: { workspaceDir: ws, filesystemScope: "workspace", networkScope: "deny" },
      env: { PATH: "/usr/bin:/bin", LD_LIBRARY_PATH: "/opt/site/lib", LD_PRELOAD: "/ws/evil.so" },
      ...(hostEnv ? { hostEnv } : {}),
    });
    await target.cleanup?.();
    return target;
  };

  it("leaves in bwrap's env one whose value is the host's, and moves the run's own to argv", async () => {
    const target = await build({ LD_LIBRARY_PATH: "/opt/site/lib", LD_PRELOAD: "/opt/other.so" });
    expect(target.env).not.toHaveProperty("LD_LIBRARY_PATH");
    expect(target.env).toHaveProperty("LD_PRELOAD", undefined);
    expect(target.args.join("\0")).toContain("--setenv\0LD_PRELOAD\0/ws/evil.so");
    expect(target.args).not.toContain("/opt/site/lib");
  });

  it("trusts none with hostEnv {} (the runner's harness env)", async () => {
    const target = await build({});
    expect(target.env).toHaveProperty("LD_LIBRARY_PATH", undefined);
    expect(target.args.join("\0")).toContain("--setenv\0LD_LIBRARY_PATH\0/opt/site/lib");
  });

  it("defaults hostEnv to this process's env", async () => {
    const saved = process.env.LD_LIBRARY_PATH;
    process.env.LD_LIBRARY_PATH = "/opt/site/lib";
    try {
      const target = await build();
      expect(target.env).not.toHaveProperty("LD_LIBRARY_PATH");
    } finally {
      if (saved === undefined) delete process.env.LD_LIBRARY_PATH;
      else process.env.LD_LIBRARY_PATH = saved;
    }
  });
});
