import { integrationPreconditions } from "@paperclipai/test-support/preconditions";

// The integration tests run the built daemon, chown directories to uid 65534 and run the bin
// as that user, and start harnesses in the adapter-utils sandbox.
export default integrationPreconditions("@paperclipai/paperclip-runner", {
  linux: true,
  root: "tests chown directories and run the bin as uid 65534",
  bubblewrap: true,
  build: [new URL("../dist/index.js", import.meta.url), new URL("../dist/diagnostics.js", import.meta.url)],
});
