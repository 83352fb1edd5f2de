// Started by sync-large-tree.test.ts under a small V8 heap: syncs a host tree into a
// sandbox and back, then reports the results and this process's peak memory.
import { getHeapStatistics } from "node:v8";
// The build, as the host loads it (the source needs the bundler's version constant).
import { createPlugin, manifest } from "../../dist/index.js";
import { wirePlugin } from "./plugin-harness.js";

const [url, apiKey, source, target] = process.argv.slice(2) as [string, string, string, string];
// The host's limit for a sync grows with `timeoutMs` (+30 s); its default (30 s) is too short
// for 384 MiB each way on a loaded 2-core machine, and this test is about memory, not deadlines.
const t = await wirePlugin({ createPlugin, manifest }, { url, apiKey }, { timeoutMs: 600_000 });
const lease = await t.harness.acquireLease({ ...t.base, runId: "large-tree" });
const rssBeforeBytes = process.memoryUsage().rss;
const into = await t.sync.in({
  ...t.lease(lease),
  operations: [
    {
      operationId: "in",
      files: [{ sourcePath: source, targetPath: "/paperclip-workspace/big", kind: "directory" }],
    },
  ],
});
const back = await t.sync.out({
  ...t.lease(lease),
  operations: [
    {
      operationId: "out",
      files: [{ sourcePath: "/paperclip-workspace/big", targetPath: target, kind: "directory" }],
    },
  ],
});
process.stdout.write(
  JSON.stringify({
    into: into.operations[0],
    back: back.operations[0],
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    rssBeforeBytes,
    heapLimitBytes: getHeapStatistics().heap_size_limit,
  }),
);
