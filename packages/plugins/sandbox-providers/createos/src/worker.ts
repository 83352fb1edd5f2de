import { createPlugin } from "./plugin/create-plugin.js";

/** The plugin the Paperclip host runs in its worker process (`node dist/worker.js`). */
const plugin = createPlugin();
export default plugin;

// The SDK is ESM-only (no `require` export condition): a dynamic import keeps this entry
// loadable from both builds. `runWorker` starts the stdio JSON-RPC host only when this file
// is the process entry point, so importing the module has no effect.
import("@paperclipai/plugin-sdk").then(
  ({ runWorker }) => {
    runWorker(plugin, import.meta.url);
  },
  (error: unknown) => {
    process.stderr.write(
      `paperclip.createos-sandbox-provider: cannot load @paperclipai/plugin-sdk: ${String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
