import { integrationPreconditions } from "@paperclipai/test-support/preconditions";

// The integration tests run the built bin and load the built ESM and CJS files.
export default integrationPreconditions("@paperclipai/errors", {
  build: [new URL("../dist/index.cjs", import.meta.url), new URL("../dist/cli.js", import.meta.url)],
});
