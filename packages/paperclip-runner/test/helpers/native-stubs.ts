import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";

// Small native stand-ins the differential tests build with the machine's gcc (each in a directory
// removed when the test finishes): upstream's runner verifies and runs native code its own way,
// where a script or Node cannot stand in.

function compile(name: string, source: string, flags: readonly string[]): string {
  // No space in the path: LD_PRELOAD takes a list separated by spaces or colons.
  const dir = tempDirForTest("runner-native-");
  const file = path.join(dir, name);
  writeFileSync(`${file}.c`, source);
  execFileSync("gcc", [...flags, "-O1", "-o", file, `${file}.c`]);
  return file;
}

/**
 * A shared object whose `getrandom` fills with zeros, for LD_PRELOAD: upstream's runner then
 * draws its runtime request scope (16 bytes from `getrandom`) as zeros, so its ids can be
 * compared with `runtimeRequestId` over a zero scope. No libc: it loads under the runner's own.
 */
export const zeroRandomPreload = (): string =>
  compile(
    "zero-random.so",
    `typedef unsigned long size_t;
long getrandom(void *buffer, size_t length, unsigned int flags) {
  unsigned char *bytes = buffer;
  for (size_t index = 0; index < length; index++) bytes[index] = 0;
  return (long)length;
}
`,
    ["-shared", "-fPIC", "-nostdlib"],
  );

/**
 * An executable running `node script` with its arguments: upstream's runner hands the OpenCode
 * executable to the proxy as a sealed memory file, from which a `#!` script cannot load itself.
 */
export const nodeScriptLauncher = (script: string): string =>
  compile(
    "node-script",
    `#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
  char **args = calloc((size_t)argc + 2, sizeof(char *));
  args[0] = ${JSON.stringify(process.execPath)};
  args[1] = ${JSON.stringify(script)};
  for (int index = 1; index < argc; index++) args[index + 1] = argv[index];
  execv(args[0], args);
  return 127;
}
`,
    [],
  );
