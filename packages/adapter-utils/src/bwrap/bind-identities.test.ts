import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { expect, it } from "vitest";
import { bindIdentities } from "./bind-identities.js";

it("lists only the sources the builders judged: the host's own may be replaced by rename", () => {
  const root = tempDirForTest("pc-bind-identities-");
  // Stands for /etc/resolv.conf, which the host's resolver manager replaces by rename at will.
  const system = path.join(root, "resolv.conf");
  writeFileSync(system, "");
  const judged = path.join(root, "ws");
  mkdirSync(judged);
  const args = ["--ro-bind", system, "/etc/resolv.conf", "--bind", judged, judged];
  const list = bindIdentities(args, new Set([judged]));
  expect(
    list.split(",").map((entry) => Buffer.from(entry.split(":")[3] as string, "hex").toString()),
  ).toEqual([judged]);
  // The host's rename after the build cannot fail the run: nothing of that source was listed.
  renameSync(system, `${system}.old`);
  writeFileSync(system, "");
  expect(bindIdentities(args, new Set([judged]))).toBe(list);
});

it("refuses a judged source whose directory became a link since it was judged, for good (not retryable)", () => {
  const root = tempDirForTest("pc-bind-identities-");
  const judged = path.join(root, "dir", "cfg");
  mkdirSync(judged, { recursive: true });
  renameSync(path.join(root, "dir"), path.join(root, "dir.checked"));
  symlinkSync("dir.checked", path.join(root, "dir"));
  const build = () => bindIdentities(["--ro-bind", judged, judged], new Set([judged]));
  expect(build).toThrow(expect.objectContaining({ code: "ERR_SANDBOX_BIND_CHANGED", retryable: false }));
});
