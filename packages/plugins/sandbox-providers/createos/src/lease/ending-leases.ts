interface Ending {
  count: number;
  readonly settled: Promise<void>;
  readonly settle: () => void;
}

/**
 * The releases and destroys under way, per sandbox, so that shutdown can leave a sandbox to
 * the one ending it and still try once more where that failed.
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

  /** Settles once no ending of the sandbox is under way (at once when none is). */
  settled(sandboxId: string): Promise<void> {
    return this.#bySandbox.get(sandboxId)?.settled ?? Promise.resolve();
  }
}
