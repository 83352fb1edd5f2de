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
 * A shared object whose `getrandom` fills the buffer of its n-th call (counted across threads)
 * with n, little-endian, again and again: each draw of upstream's runner differs from the others
 * and can be found again (`countedScope`), so a test tells a scope drawn anew from one kept.
 */
export const countingRandomPreload = (): string =>
  compile(
    "counting-random.so",
    `typedef unsigned long size_t;
static unsigned int calls;
long getrandom(void *buffer, size_t length, unsigned int flags) {
  unsigned int call = __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
  unsigned char *bytes = buffer;
  for (size_t index = 0; index < length; index++) bytes[index] = (unsigned char)(call >> (8 * (index % 4)));
  return (long)length;
}
`,
    ["-shared", "-fPIC", "-nostdlib"],
  );

/** The 16 bytes `countingRandomPreload` fills on its n-th call. */
export const countedScope = (call: number): Uint8Array =>
  Uint8Array.from({ length: 16 }, (_, index) => (call >>> (8 * (index % 4))) & 0xff);

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
