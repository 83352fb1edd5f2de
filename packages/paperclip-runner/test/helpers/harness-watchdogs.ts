import { readFileSync } from "node:fs";
import { readCommandLine } from "@paperclipai/test-support";

/** A daemon's harness (or provider) watchdogs: its children running the watchdog shell. */
export function watchdogsOf(daemon: number): number[] {
  const children = readFileSync(`/proc/${daemon}/task/${daemon}/children`, "utf8")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return children.map(Number).filter((pid) => readCommandLine(pid)?.includes("paperclip-harness-watchdog"));
}
