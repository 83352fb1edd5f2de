// Started by sync-host-space.test.ts inside bubblewrap, with `target` a small file system of its
// own: syncs a tree into a sandbox, then each named mapping out onto that file system, and
// reports what each sync out did.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import type { PluginSyncFileMapping } from "@paperclipai/plugin-sdk";
// The build, as the host loads it (the source needs the bundler's version constant).
import { createPlugin, manifest } from "../../dist/index.js";
import { wirePlugin } from "./plugin-harness.js";

/** A sync out to run: `source` below the synced-in tree ("" for the tree), `target` below the file system. */
export interface HostSpaceCase {
  readonly source: string;
  readonly target: string;
  readonly kind: "file" | "directory";
  readonly exclude?: string[];
}

const [url, apiKey, source, target, cases] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const t = await wirePlugin({ createPlugin, manifest }, { url, apiKey });
const lease = await t.harness.acquireLease({ ...t.base, runId: "host-space" });
await t.sync.in({
  ...t.lease(lease),
  operations: [
    {
      operationId: "in",
      files: [{ sourcePath: source, targetPath: "/paperclip-workspace/tree", kind: "directory" }],
    },
  ],
});

/** One sync out onto the small file system: its result or its error, and what it left there. */
async function syncOut(file: PluginSyncFileMapping): Promise<Record<string, unknown>> {
  let outcome: Record<string, unknown>;
  try {
    const result = await t.sync.out({
      ...t.lease(lease),
      operations: [{ operationId: "out", files: [file] }],
    });
    outcome = { result: result.operations[0] };
  } catch (error) {
    outcome = PaperclipError.is(error)
      ? { code: error.code, message: error.message, details: error.details }
      : { uncoded: String(error) };
  }
  return { ...outcome, left: (await readdir(target)).sort() };
}

const report: Record<string, unknown> = {};
for (const [name, mapping] of Object.entries(JSON.parse(cases) as Record<string, HostSpaceCase>)) {
  report[name] = await syncOut({
    sourcePath: join("/paperclip-workspace/tree", mapping.source),
    targetPath: join(target, mapping.target),
    kind: mapping.kind,
    ...(mapping.exclude === undefined ? {} : { exclude: mapping.exclude }),
  });
}
process.stdout.write(JSON.stringify(report));
