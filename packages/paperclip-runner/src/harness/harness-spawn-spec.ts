/** What to execute as the harness: a plain command, or a sandbox launcher's spawn target. */
export interface HarnessSpawnSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The complete environment; `undefined` values are left out. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Runs once the harness is gone (the sandbox's proxy and temp directories). */
  readonly cleanup?: () => Promise<void>;
  /** Shown in `harness.starting`; never includes argument values, which may hold secrets. */
  readonly label: string;
  readonly sandboxed: boolean;
  /** Values the harness's log tail never shows (those of the variables passed through by name). */
  readonly maskedValues?: readonly string[];
}
