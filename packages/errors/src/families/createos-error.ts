import { brandClass } from "../brand.js";
import { PaperclipError } from "../paperclip-error.js";
import type { CreateosErrorCode } from "../registry/codes.js";

/** Failures of the CreateOS sandbox provider (`@paperclipai/plugin-createos`). */
export class CreateosError<Code extends CreateosErrorCode = CreateosErrorCode> extends PaperclipError<Code> {
  static {
    brandClass(this, "CreateosError");
  }
}
