/** What bwrap reported on `--json-status-fd`: the sandbox's host pid once set up, the program's status once it ran. */
export interface BwrapStatus {
  /** Host pid of the sandbox's first process; also the process group of everything inside. */
  childPid: number | null;
  /** Present only when the program was started: bwrap writes it after the program ends. */
  exitCode: number | null;
}

/**
 * Accumulates bwrap's status stream (JSON documents, one per line) and keeps the
 * fields the spawn helper needs. Partial lines wait for the next chunk; lines that
 * do not parse are ignored, since the stream is informational.
 */
export class BwrapStatusReader {
  readonly status: BwrapStatus = { childPid: null, exitCode: null };
  #pending = "";

  push(chunk: string): void {
    this.#pending += chunk;
    let newline = this.#pending.indexOf("\n");
    while (newline !== -1) {
      this.#readLine(this.#pending.slice(0, newline));
      this.#pending = this.#pending.slice(newline + 1);
      newline = this.#pending.indexOf("\n");
    }
  }

  end(): void {
    this.#readLine(this.#pending);
    this.#pending = "";
  }

  #readLine(line: string): void {
    if (!line.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return;
    }
    if (!parsed || typeof parsed !== "object") return;
    const record = parsed as Record<string, unknown>;
    const childPid = record["child-pid"];
    const exitCode = record["exit-code"];
    if (typeof childPid === "number") this.status.childPid = childPid;
    if (typeof exitCode === "number") this.status.exitCode = exitCode;
  }
}

/** `--json-status-fd` exists since bubblewrap 0.5.0. */
export function bwrapSupportsJsonStatus(versionOutput: string): boolean {
  const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  return major > 0 || minor >= 5;
}
