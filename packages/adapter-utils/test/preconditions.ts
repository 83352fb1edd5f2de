import { integrationPreconditions } from "@paperclipai/test-support/preconditions";

// The integration tests start real sandboxes: bubblewrap, mount namespaces, programs run as
// uid 65534, files chowned to another user (a registry another user made first), the built bin.
export default integrationPreconditions("@paperclipai/adapter-utils", {
  linux: true,
  root: "tests create mount namespaces, run programs as uid 65534 and chown files to it",
  bubblewrap: true,
  build: [new URL("../dist/index.js", import.meta.url), new URL("../dist/node-bridge.cjs", import.meta.url)],
});
