import { brandClass } from "../brand.js";
import type { PaperclipErrorOptions } from "../paperclip-error.js";
import type { CreateosErrorCode } from "../registry/codes.js";
import { CreateosError } from "./createos-error.js";

export interface CreateosApiErrorOptions extends PaperclipErrorOptions {
  /** The HTTP status CreateOS answered with. */
  readonly status: number;
  /** A fixed label of the call, for example `output connection`; never a URL or a body. */
  readonly operation: string;
}

/** A CreateOS HTTP call that returned a non-2xx status. The provider's body is never kept. */
export class CreateosApiError<
  Code extends CreateosErrorCode = CreateosErrorCode,
> extends CreateosError<Code> {
  static {
    brandClass(this, "CreateosApiError");
  }

  readonly status: number;
  readonly operation: string;

  constructor(code: Code, message: string, options: CreateosApiErrorOptions) {
    super(code, message, options);
    this.status = options.status;
    this.operation = options.operation;
  }
}
