// Upstream's own redaction tests (`command-redaction.test.js` of @paperclipai/adapter-utils@2026.916.1),
// loaded from the installed package and run against ours with only the marker text mapped
// (see test/upstream-redaction/run-upstream-tests-against-ours.ts, wired in vitest.config.ts).
await import("upstream-adapter-utils/command-redaction.test");
