import { brandClass } from "../brand.js";
import { PaperclipError } from "../paperclip-error.js";
import type { SandboxErrorCode } from "../registry/codes.js";

/** Failures of the local-process sandbox (`@paperclipai/adapter-utils`). */
export class SandboxError<Code extends SandboxErrorCode = SandboxErrorCode> extends PaperclipError<Code> {
  static {
    brandClass(this, "SandboxError");
  }
}
