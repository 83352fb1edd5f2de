import { manifest } from "../../src/manifest.js";
import { createPlugin } from "../../src/plugin/create-plugin.js";
import {
  type EmulatorAddress,
  type PluginTestOptions,
  type PluginUnderTest,
  wirePlugin,
} from "./plugin-harness.js";

/** The plugin from its source, in the SDK's environment test harness. */
export function pluginUnderTest(
  emulator: EmulatorAddress,
  extra: Record<string, unknown> = {},
  environmentId = "env-1",
  options: PluginTestOptions = {},
): Promise<PluginUnderTest> {
  return wirePlugin({ createPlugin, manifest }, emulator, extra, environmentId, options);
}
