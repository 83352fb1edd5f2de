import type { DurableState } from "./durable-state.js";

/**
 * The in-memory state and the durable one. Changes are made in memory with
 * `update`; `commit` makes the latest state durable (calls made while a write is
 * in flight share the next write). Only `durable` may be acted on outside the
 * process (sending an event, answering a command).
 */
export class StateCommitter {
  private current: DurableState;
  private saved: DurableState;
  private chain: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(
    initial: DurableState,
    private readonly save: (state: DurableState) => Promise<void>,
  ) {
    this.current = initial;
    this.saved = initial;
  }

  get state(): DurableState {
    return this.current;
  }

  get durable(): DurableState {
    return this.saved;
  }

  update(change: (state: DurableState) => DurableState): void {
    this.current = change(this.current);
  }

  commit(): Promise<void> {
    if (!this.scheduled) {
      this.scheduled = true;
      this.chain = this.chain.then(async () => {
        this.scheduled = false;
        const snapshot = this.current;
        await this.save(snapshot);
        this.saved = snapshot;
      });
    }
    return this.chain;
  }
}
