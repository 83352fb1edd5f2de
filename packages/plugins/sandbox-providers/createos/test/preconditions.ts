import { integrationPreconditions } from "@paperclipai/test-support/preconditions";

// The integration tests run the emulator's processes under bubblewrap and start the built
// worker (`node dist/worker.js`) as the host does.
export default integrationPreconditions("@paperclipai/plugin-createos", {
  linux: true,
  bubblewrap: true,
  build: [
    new URL("../dist/worker.js", import.meta.url),
    new URL("../dist/index.cjs", import.meta.url),
    new URL("../dist/client.js", import.meta.url),
    new URL("../../createos-emulator/dist/index.js", import.meta.url),
  ],
});
