/** What a tour section uses to show progress and record its steps. */
export interface TourContext {
  /** Prints one progress line under the current step. */
  log(line: string): void;
  /**
   * Runs one step of the tour. `run` returns a one-line summary of what the step
   * showed; a throw is recorded as a failed step (with its error code) and the
   * tour goes on.
   */
  step(title: string, run: () => Promise<string>): Promise<void>;
}

/** A section of the tour, one per package, in `src/sections/`. */
export type TourSection = (context: TourContext) => Promise<void>;
