/**
 * The independent server's reading and writing of the wire, from the spec's API table only:
 * which route a request's method and path name, and how a data or exit frame is spelled.
 */
import type { JournalFrame, Route, ScriptedExit } from "./independent-server-script.js";

/** The route a request names, with the sandbox and process ids from its path. */
export function routeOf(method: string, path: string): { route: Route | "unknown"; ids: string[] } {
  const parts = path.split("/").filter(Boolean);
  if (parts[0] !== "v1" || parts[1] !== "sandboxes") return { route: "unknown", ids: [] };
  const [, , sandbox, sub, pid, action] = parts;
  const ids = [sandbox ?? "", pid ?? ""];
  if (sandbox === undefined) return { route: method === "POST" ? "sandbox.create" : "unknown", ids };
  if (sub === undefined)
    return {
      route: method === "GET" ? "sandbox.get" : method === "DELETE" ? "sandbox.delete" : "unknown",
      ids,
    };
  if (sub === "exec") return { route: "sandbox.exec", ids };
  if (sub === "pause" || sub === "resume")
    return { route: sub === "pause" ? "sandbox.pause" : "sandbox.resume", ids };
  if (sub === "files") return { route: method === "PUT" ? "files.put" : "files.get", ids };
  if (sub !== "processes") return { route: "unknown", ids };
  if (pid === undefined) return { route: "process.create", ids };
  if (action === undefined) return { route: method === "DELETE" ? "process.kill" : "unknown", ids };
  if (action === "stdin") return { route: "process.stdinClose", ids };
  if (action === "connect") return { route: "process.connect", ids };
  if (action === "wait") return { route: "process.wait", ids };
  return { route: "unknown", ids };
}

/** The journal's frames in seq order: seq n is `frames[n - 1]`. */
export function dataFrameJson(seq: number, frame: JournalFrame, extra: boolean, rand: () => number): string {
  const base64 = frame.bytes.toString("base64");
  // Field order and spacing differ from a JSON.stringify of the spec's example.
  if (!extra) return `{"seq":${seq},"data_base64":"${base64}","stream":"${frame.stream}","type":"data"}`;
  const note = rand() < 0.5 ? "ünïcødé 🙂 — ✓" : "日本語のテキスト";
  return `{ "type" : "data", "stream": "${frame.stream}", "note": "${note}", "seq": ${seq}, "meta": {"k": [1, 2, {"x": null}]}, "data_base64": "${base64}" }`;
}

export function exitJson(exit: ScriptedExit, extra: boolean): string {
  const fields: string[] = [];
  if (exit.exitCode !== null) fields.push(`"exit_code":${exit.exitCode}`);
  if (exit.signal !== null) fields.push(`"signal":"${exit.signal}"`);
  if (extra) fields.push('"duration_ms":12.5', '"reason":"ünïcødé"');
  return `{${[...fields, '"type":"exit"'].join(",")}}`;
}
