/**
 * A seccomp filter (classic BPF, as bubblewrap's `--seccomp` reads it) under which link(2) and
 * linkat(2) fail with EPERM, as they do on vfat (whose driver has no `link`): a file system
 * without hard links, which this kernel cannot mount, for a real process on a real one.
 */
const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;
const LINK_CALLS = { x64: [86, 265], arm64: [37, 37] } as const;

const LOAD_WORD = 0x20;
const JUMP_EQUAL = 0x15;
const RETURN = 0x06;
const ALLOW = 0x7fff0000;
const ERRNO_EPERM = 0x00050001;

export function noHardLinksFilter(): Buffer {
  const arch = process.arch as keyof typeof AUDIT_ARCH;
  if (!(arch in AUDIT_ARCH)) throw new Error(`no link filter for ${process.arch}`);
  const [link, linkat] = LINK_CALLS[arch];
  // [code, jump if true, jump if false, k]: another architecture's calls are let through.
  const program = [
    [LOAD_WORD, 0, 0, 4],
    [JUMP_EQUAL, 0, 3, AUDIT_ARCH[arch]],
    [LOAD_WORD, 0, 0, 0],
    [JUMP_EQUAL, 2, 0, link],
    [JUMP_EQUAL, 1, 0, linkat],
    [RETURN, 0, 0, ALLOW],
    [RETURN, 0, 0, ERRNO_EPERM],
  ] as const;
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, whenTrue, whenFalse, k], index) => {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(whenTrue, index * 8 + 2);
    bytes.writeUInt8(whenFalse, index * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return bytes;
}
