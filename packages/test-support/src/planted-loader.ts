import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const SOURCE = fileURLToPath(new URL("./fixtures/planted-loader.c", import.meta.url));

/**
 * Compiles what a sandboxed program plants for a later run (`fixtures/planted-loader.c`) to
 * `output`: a shared object whose constructor appends the name of each process that loads it
 * to `marker`. Usable as `LD_PRELOAD` or `LD_AUDIT`; with `fakeLibcap`, as the `libcap.so.2`
 * a dynamic loader finds on `LD_LIBRARY_PATH` for bwrap. Needs a C compiler (`$CC` or `cc`),
 * which the test command's provisioning installs. Returns `output`.
 */
export function buildPlantedLoader(
  output: string,
  marker: string,
  options: { fakeLibcap?: boolean } = {},
): string {
  const args = ["-shared", "-fPIC", `-DMARKER=${JSON.stringify(marker)}`];
  if (options.fakeLibcap) args.push("-DFAKE_LIBCAP", "-Wl,-soname,libcap.so.2");
  execFileSync(process.env.CC || "cc", [...args, "-o", output, SOURCE], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return output;
}
