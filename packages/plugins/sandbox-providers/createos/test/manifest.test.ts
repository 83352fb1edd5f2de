import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CONFIG_SCHEMA, DRIVER_KEY, manifest, PLUGIN_ID } from "../src/manifest.js";
import { parseConfig } from "../src/plugin/plugin-config.js";

/** The host's own manifest schema, from the `@paperclipai/shared` the SDK depends on. */
async function hostManifestSchema(): Promise<{
  safeParse(value: unknown): { success: boolean; error?: unknown };
}> {
  const sdkDir = realpathSync(
    fileURLToPath(new URL("../node_modules/@paperclipai/plugin-sdk", import.meta.url)),
  );
  const shared = join(dirname(sdkDir), "shared", "dist", "index.js");
  const module = (await import(pathToFileURL(shared).href)) as { pluginManifestV1Schema: never };
  return module.pluginManifestV1Schema;
}

describe("manifest", () => {
  it("passes the host's manifest schema", async () => {
    const result = (await hostManifestSchema()).safeParse(manifest);
    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
  });

  it("names the plugin, the driver and the entry points the package ships", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
      paperclipPlugin: { manifest: string; worker: string };
    };
    expect(manifest.id).toBe(PLUGIN_ID);
    expect(PLUGIN_ID).toBe("paperclip.createos-sandbox-provider");
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.entrypoints.worker).toBe(pkg.paperclipPlugin.worker);
    expect(pkg.paperclipPlugin.manifest).toBe("./dist/manifest.js");
    expect(manifest.environmentDrivers?.map((d) => d.driverKey)).toEqual([DRIVER_KEY]);
    expect(DRIVER_KEY).toBe("createos");
  });

  it("declares the sandbox capabilities the plugin keeps, incremental session output included", () => {
    // Opt-in on the host: without it, ACP sessions are polled with 1+2n commands every 100 ms.
    expect(manifest.environmentDrivers?.[0]?.sandboxCapabilities).toEqual({
      reusableLeases: true,
      nativeSyncIn: true,
      nativeSyncOut: true,
      incrementalSessionOutput: true,
    });
  });

  it("declares exactly the config keys the plugin accepts, with its defaults", () => {
    const defaults = Object.fromEntries(
      Object.entries(CONFIG_SCHEMA.properties)
        .filter(([, property]) => "default" in property)
        .map(([key, property]) => [key, (property as { default: unknown }).default]),
    );
    const parsed = parseConfig({ apiKey: "k", shape: "s-1vcpu-1gb" }, {});
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    for (const [key, value] of Object.entries(defaults)) {
      expect(parsed.config[key as keyof typeof parsed.config]).toBe(value);
    }
    // Every key of the schema is a key the parser knows.
    const everyKey = Object.fromEntries(Object.keys(CONFIG_SCHEMA.properties).map((key) => [key, undefined]));
    expect(parseConfig({ ...everyKey, apiKey: "k", shape: "s-1vcpu-1gb" }, {}).ok).toBe(true);
  });

  it("promises the Node versions its README documents, apart from the SDK's host-only floor", () => {
    const readJson = (url: URL) => JSON.parse(readFileSync(url, "utf8")) as { engines: { node: string } };
    const own = readJson(new URL("../package.json", import.meta.url));
    const sdk = readJson(new URL("../node_modules/@paperclipai/plugin-sdk/package.json", import.meta.url));
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    expect(own.engines.node).toBe(">=20.19.0");
    // The SDK (and the server) need Node 24.11+, which the README names for running inside a server.
    expect(sdk.engines.node).toBe(">=24.11.0");
    expect(readme).toContain('`engines: ">=20.19.0"`');
    expect(readme).toContain("**24.11 or newer**");
  });
});
