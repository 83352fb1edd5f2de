import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** The bytes of a file's head the kernel reads to pick its binary format (`BINPRM_BUF_SIZE`). */
const BINPRM_BUF_SIZE = 256;
/** How deep the kernel lets one script's interpreter be another script (`exec_binprm`). */
const MAX_SCRIPT_DEPTH = 4;
const PT_INTERP = 3;
/** The largest program header table the kernel loads. */
const MAX_PROGRAM_HEADERS = 65536;

/**
 * The interpreter `execve(file)` must open before it runs anything: a script's (`#!` line, as
 * `binfmt_script` parses it) or a dynamic ELF's (`PT_INTERP`, its loader). execve fails with
 * that open's error (`ENOENT` when it is missing, `EACCES` when it is not executable), and
 * execvp then goes on to the next `PATH` entry, so a search that judged the file alone chose
 * one that cannot run. `null`: no interpreter to open (a static ELF, another format), or a
 * head this parser does not understand or cannot read (the exec itself then tells). `script` says whether
 * the interpreter goes through the binary formats again (an ELF's loader does not).
 */
export function execInterpreter(file: string): { readonly path: string; readonly script: boolean } | null {
  let fd: number;
  try {
    // Non-blocking, and only a regular file is read: a `#!` naming a FIFO would otherwise
    // hang the bridge in open (execve refuses one with EACCES, as `openRefusal` does).
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return null;
  }
  try {
    if (!fstatSync(fd).isFile()) return null;
    const head = readAt(fd, 0, BINPRM_BUF_SIZE);
    if (head === null) return null;
    const script = scriptInterpreter(head);
    if (script !== null) return { path: script, script: true };
    const loader = elfInterpreter(fd, head);
    return loader === null ? null : { path: loader, script: false };
  } finally {
    closeSync(fd);
  }
}

/** The chain of interpreters execve opens for `file`, scripts' own interpreters included, up to the kernel's depth. */
export function execInterpreters(file: string): string[] {
  const chain: string[] = [];
  let current = execInterpreter(file);
  while (current !== null && chain.length <= MAX_SCRIPT_DEPTH) {
    chain.push(current.path);
    current = current.script ? execInterpreter(current.path) : null;
  }
  return chain;
}

/**
 * Up to `length` bytes at `position`; `null` when they cannot be read: a read error (the
 * file `/proc/self/mem` gives EIO) or an offset Node cannot read at (past 2^53). The kernel
 * fails such an exec with the error execvp acts on (EACCES, ENOEXEC, EIO), so no interpreter
 * is judged, and the bridge must not die of it.
 */
function readAt(fd: number, position: number, length: number): Buffer | null {
  if (!Number.isSafeInteger(position)) return null;
  const buffer = Buffer.alloc(length);
  try {
    return buffer.subarray(0, readSync(fd, buffer, 0, length, position));
  } catch {
    return null;
  }
}

/**
 * `binfmt_script`: the first line's first word after `#!` and any spaces or tabs. A full
 * buffer with no newline whose name runs to its end (no space, tab or NUL after it) may be
 * cut short: the kernel (5.1+) answers ENOEXEC and execvp runs the file with /bin/sh.
 */
function scriptInterpreter(head: Buffer): string | null {
  if (head[0] !== 0x23 || head[1] !== 0x21) return null;
  const newline = head.indexOf(0x0a);
  const line = head.subarray(2, newline === -1 ? head.length : newline).toString("latin1");
  const match = /^[ \t]*([^ \t\0]+)/.exec(line);
  if (match === null) return null;
  const truncated = newline === -1 && head.length === BINPRM_BUF_SIZE && match[0].length === line.length;
  return truncated ? null : match[1]!;
}

/** A dynamic ELF's `PT_INTERP`, either class and byte order; `null` for a static one or a malformed head. */
function elfInterpreter(fd: number, head: Buffer): string | null {
  if (head.length < 64 || head.readUInt32BE(0) !== 0x7f454c46) return null;
  const wide = head[4] === 2;
  const little = head[5] === 1;
  const u16 = (buf: Buffer, at: number) => (little ? buf.readUInt16LE(at) : buf.readUInt16BE(at));
  const u32 = (buf: Buffer, at: number) => (little ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const word = (buf: Buffer, at: number) =>
    wide ? Number(little ? buf.readBigUInt64LE(at) : buf.readBigUInt64BE(at)) : u32(buf, at);
  const phoff = word(head, wide ? 0x20 : 0x1c);
  const phentsize = u16(head, wide ? 0x36 : 0x2a);
  const phnum = u16(head, wide ? 0x38 : 0x2c);
  // The kernel's own bounds (`load_elf_phdrs`): entries of the class's size, 64 KiB at most, read at once.
  if (phentsize !== (wide ? 56 : 32) || phnum === 0 || phnum * phentsize > MAX_PROGRAM_HEADERS) return null;
  const table = readAt(fd, phoff, phnum * phentsize);
  if (table === null || table.length < phnum * phentsize) return null;
  for (let index = 0; index < phnum; index++) {
    const header = table.subarray(index * phentsize, (index + 1) * phentsize);
    if (u32(header, 0) !== PT_INTERP) continue;
    const offset = word(header, wide ? 0x08 : 0x04);
    const size = word(header, wide ? 0x20 : 0x10);
    if (size < 2 || size > 4096) return null;
    const name = readAt(fd, offset, size);
    if (name === null) return null;
    const end = name.indexOf(0);
    return name.subarray(0, end === -1 ? name.length : end).toString("latin1") || null;
  }
  return null;
}
