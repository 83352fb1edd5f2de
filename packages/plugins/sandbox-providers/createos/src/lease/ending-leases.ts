import { unlessAborted } from "../client/unless-aborted.js";

interface Ending {
  count: number;
  readonly settled: Promise<void>;
  readonly settle: () => void;
}

/**
 * The releases, destroys and pauses after a failed resume under way, per sandbox: shutdown
 * leaves a sandbox to the one ending it (and tries once more where that failed), and a resume
 * waits for them rather than race them.
 */
export class EndingLeases {
  readonly #bySandbox = new Map<string, Ending>();

  /** Notes an ending under way until the returned function is called (once; later calls do nothing). */
  begin(sandboxId: string): () => void {
    let ending = this.#bySandbox.get(sandboxId);
    if (ending === undefined) {
      let settle!: () => void;
      const settled = new Promise<void>((resolve) => {
        settle = resolve;
      });
      ending = { count: 0, settled, settle };
      this.#bySandbox.set(sandboxId, ending);
    }
    ending.count += 1;
    const current = ending;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      current.count -= 1;
      if (current.count > 0) return;
      this.#bySandbox.delete(sandboxId);
      current.settle();
    };
  }

  /**
   * Settles once no ending of the sandbox is under way (at once when none is); rejects with
   * the signal's reason if it is aborted first.
   */
  settled(sandboxId: string, signal?: AbortSignal): Promise<void> {
    const settled = this.#bySandbox.get(sandboxId)?.settled;
    if (settled === undefined) return Promise.resolve();
    return signal === undefined ? settled : unlessAborted(settled, signal);
  }
}
