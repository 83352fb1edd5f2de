// Started by emulator-exit.test.ts: starts a process in the emulator, prints where it lives, then exits without close().
import { startCreateosEmulator } from "../../src/start-emulator.js";
import { RawApi } from "./raw-api.js";

const emulator = await startCreateosEmulator({ rateLimitPerMinute: null, transitionMs: 0 });
const api = new RawApi(emulator);
const sandbox = await api.runningSandbox();
await api.process(sandbox, "sleep 300");
const process_ = emulator.processes()[0];
const workspaceDir = emulator.sandboxes()[0]?.workspaceDir;
process.stdout.write(JSON.stringify({ osPid: process_?.osPid, workspaceDir }));
process.exit(0);
