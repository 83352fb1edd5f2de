// Runs the server's own checks of a runner's `--build-metadata` line (Node 24, the server's code):
// `assertRemoteRunnerBuildMetadata`, which gates staging a runner in a remote sandbox, for each
// transport mode, and the evals' `parsePaperclipRunnerdBuildMetadata`. Prints one JSON line.
// Usage: node build-metadata-check.mjs <serverDir> <metadata line>
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [serverDir, line] = process.argv.slice(2);
const dist = join(serverDir, "node_modules/@paperclipai/server/dist");
const executor = await import(
  pathToFileURL(join(dist, "services/native-runtime/native-session-executor.js")).href
);
const artifact = await import(
  pathToFileURL(join(dist, "vendor/paperclip-runner/evals/runnerd-artifact.js")).href
);
const metadata = JSON.parse(line);
const outcome = (check) => {
  try {
    return { ok: true, value: check() ?? null };
  } catch (error) {
    return { ok: false, error: error.message };
  }
};
const modes = {};
for (const mode of ["dial_ws_loopback", "dial_wss", "listen_ws"]) {
  modes[mode] = outcome(() => executor.assertRemoteRunnerBuildMetadata(metadata, mode));
}
const parsed = outcome(() => artifact.parsePaperclipRunnerdBuildMetadata(metadata));
process.stdout.write(`${JSON.stringify({ modes, parsed })}\n`);
