import type { PaperclipError } from "@paperclipai/errors";

export type CheckStatus = "ok" | "warn" | "fail" | "info";

export interface DoctorCheck {
  readonly name: string;
  readonly status: CheckStatus;
  readonly detail: string;
  /** The coded error behind a `fail` or `warn`, with the registry's fixes. */
  readonly error?: PaperclipError;
}
