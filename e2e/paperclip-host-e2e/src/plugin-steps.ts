import type { EmulatorProcess } from "./emulator-process.js";
import type { Environment, HostApi, Plugin } from "./host-api.js";
import { waitFor } from "./process-group.js";

/** A shape from the CreateOS catalog (the emulator's too): the plugin requires one. */
export const SHAPE = "s-1vcpu-1gb";

/** What `POST /api/plugins/install` takes: a package name from the registry, or a local path. */
export type PluginSource = { packageName: string; isLocalPath?: true };

/** Installs the plugin through the host's API and waits until the host reports it `ready`. */
export async function installPlugin(api: HostApi, source: PluginSource): Promise<Plugin> {
  const installed = await api.post<Plugin>("/plugins/install", source);
  return waitFor(
    "the plugin reaches ready",
    async () => {
      const current = await api.get<Plugin>(`/plugins/${installed.id}`);
      if (current.status === "error") throw new Error(`plugin error: ${current.lastError}`);
      return current.status === "ready" ? current : undefined;
    },
    { timeoutMs: 120_000 },
  );
}

/** The plugin's own probe of an unsaved CreateOS config (create a sandbox, `/bin/echo`, delete). */
export function probeDraftConfig(
  api: HostApi,
  companyId: string,
  emulator: EmulatorProcess,
): Promise<{ ok: boolean; summary: string }> {
  return api.post(`/companies/${companyId}/environments/probe-config`, {
    name: "createos-draft",
    driver: "sandbox",
    config: { provider: "createos", apiUrl: emulator.url, apiKey: emulator.apiKey, shape: SHAPE },
  });
}

/**
 * A CreateOS environment of the company on `emulator`, with a 120 s command timeout; `config`
 * adds or overrides keys.
 */
export function createCreateosEnvironment(
  api: HostApi,
  companyId: string,
  emulator: EmulatorProcess,
  name: string,
  config: Record<string, unknown> = {},
): Promise<Environment> {
  return api.post<Environment>(`/companies/${companyId}/environments`, {
    name,
    driver: "sandbox",
    config: {
      provider: "createos",
      apiUrl: emulator.url,
      apiKey: emulator.apiKey,
      shape: SHAPE,
      timeoutMs: 120_000,
      ...config,
    },
  });
}
