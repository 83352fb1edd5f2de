import { PaperclipError } from "@paperclipai/errors";

/** The coded error `promise` rejects with; fails the test when it resolves or rejects with anything else. */
export async function caught(promise: Promise<unknown>): Promise<PaperclipError> {
  try {
    await promise;
  } catch (error) {
    if (PaperclipError.is(error)) return error;
    throw new Error(`expected a PaperclipError, got ${String(error)}`, { cause: error });
  }
  throw new Error("expected a rejection");
}

/** The coded error `run` throws; fails the test when it returns or throws anything else. */
export function caughtSync(run: () => unknown): PaperclipError {
  try {
    run();
  } catch (error) {
    if (PaperclipError.is(error)) return error;
    throw new Error(`expected a PaperclipError, got ${String(error)}`, { cause: error });
  }
  throw new Error("expected a throw");
}
