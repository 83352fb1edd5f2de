/**
 * `@paperclipai/plugin-createos`: the CreateOS sandbox provider for Paperclip.
 *
 * The default export is the plugin; `createPlugin()` makes a fresh instance (for tests).
 * The HTTP client and command runner it is built on are `@paperclipai/plugin-createos/client`.
 */
import { createPlugin } from "./plugin/create-plugin.js";

export { CreateosApiError, CreateosError } from "@paperclipai/errors";
export { type LeaseMetadata, MARKER_PATH, WORKSPACE_PATH } from "./lease/lease-metadata.js";
export { CONFIG_SCHEMA, DRIVER_KEY, manifest, PLUGIN_ID } from "./manifest.js";
export { type CreatePluginOptions, createPlugin } from "./plugin/create-plugin.js";
export { type CreateosConfig, parseConfig } from "./plugin/plugin-config.js";
export { VERSION } from "./version.js";

const plugin = createPlugin();
export default plugin;
