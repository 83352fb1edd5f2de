import { integrationPreconditions } from "@paperclipai/test-support/preconditions";

// The tests run the emulator's sandboxes under bubblewrap and its bin (`node dist/cli.js`) as a user does.
export default integrationPreconditions("@paperclipai/createos-emulator", {
  linux: true,
  bubblewrap: true,
  build: [new URL("../dist/cli.js", import.meta.url)],
});
