import { PaperclipError } from "../paperclip-error.js";

export function unknownCodeError(code: string): PaperclipError<"ERR_ERRORS_UNKNOWN_CODE"> {
  return new PaperclipError("ERR_ERRORS_UNKNOWN_CODE", `Unknown Paperclip error code "${code}".`, {
    details: { code },
  });
}
