/**
 * A value `build` makes on the first call, returned by every call. The redaction rules' patterns
 * and tables are built this way, not when the package loads: every process that imports
 * `@paperclipai/errors` for its error classes would otherwise pay for them at its start (a runner
 * before it can spawn its provider), though most never redact anything that early.
 */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
