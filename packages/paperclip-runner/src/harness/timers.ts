/** Resolves after `ms`; never keeps the process alive on its own. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
