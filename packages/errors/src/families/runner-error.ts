import { brandClass } from "../brand.js";
import { PaperclipError } from "../paperclip-error.js";
import type { RunnerErrorCode } from "../registry/codes.js";

/** Failures of the `paperclip-runnerd` daemon (`@paperclipai/paperclip-runner`). */
export class RunnerError<Code extends RunnerErrorCode = RunnerErrorCode> extends PaperclipError<Code> {
  static {
    brandClass(this, "RunnerError");
  }
}
