/**
 * A small assembler for classic BPF, the language of seccomp filters: each instruction
 * is `{ code: u16, jt: u8, jf: u8, k: u32 }`, 8 bytes in the machine's byte order.
 * Jumps name labels; `assemble` resolves them to the forward offsets BPF wants (at most
 * 255 instructions ahead) and refuses a program that breaks that rule.
 */

/** BPF_LD | BPF_W | BPF_ABS: A = the 32-bit word at offset k of `struct seccomp_data`. */
const LOAD_WORD = 0x20;
/** BPF_JMP | BPF_JEQ | BPF_K */
const JUMP_EQUAL = 0x15;
/** BPF_JMP | BPF_JGE | BPF_K */
const JUMP_AT_LEAST = 0x35;
/** BPF_JMP | BPF_JSET | BPF_K: jump when A & k is not zero. */
const JUMP_ANY_BIT = 0x45;
/** BPF_RET | BPF_K */
const RETURN = 0x06;

export type BpfStep =
  | { readonly op: "load"; readonly offset: number }
  | {
      readonly op: "jeq" | "jge" | "jset";
      readonly value: number;
      /** Label to go to when the test holds; `null` falls through to the next step. */
      readonly whenTrue: string | null;
      readonly whenFalse: string | null;
    }
  | { readonly op: "return"; readonly value: number }
  | { readonly op: "label"; readonly name: string };

export interface BpfInstruction {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

const JUMP_CODES = { jeq: JUMP_EQUAL, jge: JUMP_AT_LEAST, jset: JUMP_ANY_BIT } as const;
const MAX_JUMP = 255;

/** Resolves labels into the instruction list the kernel runs. */
export function assemble(steps: readonly BpfStep[]): BpfInstruction[] {
  const positions = new Map<string, number>();
  let count = 0;
  for (const step of steps) {
    if (step.op === "label") {
      if (positions.has(step.name)) throw new Error(`BPF label ${step.name} is defined twice`);
      positions.set(step.name, count);
    } else count += 1;
  }
  const offset = (from: number, label: string | null): number => {
    if (label === null) return 0;
    const to = positions.get(label);
    if (to === undefined) throw new Error(`BPF label ${label} is not defined`);
    const distance = to - from - 1;
    if (distance < 0 || distance > MAX_JUMP) throw new Error(`BPF jump to ${label} is out of range`);
    return distance;
  };
  const program: BpfInstruction[] = [];
  for (const step of steps) {
    const at = program.length;
    if (step.op === "label") continue;
    if (step.op === "load") program.push({ code: LOAD_WORD, jt: 0, jf: 0, k: step.offset });
    else if (step.op === "return") program.push({ code: RETURN, jt: 0, jf: 0, k: step.value >>> 0 });
    else {
      program.push({
        code: JUMP_CODES[step.op],
        jt: offset(at, step.whenTrue),
        jf: offset(at, step.whenFalse),
        k: step.value >>> 0,
      });
    }
  }
  return program;
}

/** `struct sock_filter[]` as bwrap's `--seccomp` reads it (little-endian, as on x86_64 and aarch64). */
export function encode(program: readonly BpfInstruction[]): Buffer {
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    bytes.writeUInt16LE(instruction.code, index * 8);
    bytes.writeUInt8(instruction.jt, index * 8 + 2);
    bytes.writeUInt8(instruction.jf, index * 8 + 3);
    bytes.writeUInt32LE(instruction.k, index * 8 + 4);
  });
  return bytes;
}

/** The kernel's own reading of a program (the tests check the filter with it); `stats` counts the instructions run. */
export function run(
  program: readonly BpfInstruction[],
  data: (offset: number) => number,
  stats: { executed: number } = { executed: 0 },
): number {
  let accumulator = 0;
  for (let pc = 0; pc < program.length; pc++) {
    stats.executed += 1;
    const { code, jt, jf, k } = program[pc]!;
    if (code === LOAD_WORD) accumulator = data(k) >>> 0;
    else if (code === RETURN) return k;
    else {
      const holds =
        code === JUMP_EQUAL
          ? accumulator === k
          : code === JUMP_AT_LEAST
            ? accumulator >= k
            : (accumulator & k) !== 0;
      pc += holds ? jt : jf;
    }
  }
  throw new Error("BPF program ran off its end");
}

/**
 * `seccomp_data` of one call as `run` reads it (`nr` at 0, `arch` at 4, each 64-bit argument's
 * low word at 16 + 8 × its index and its high word 4 bytes on): for tests of a filter.
 */
export function seccompData(
  arch: number,
  nr: number,
  args: readonly number[] = [],
): (offset: number) => number {
  return (offset) => {
    if (offset === 0) return nr;
    if (offset === 4) return arch;
    const index = Math.floor((offset - 16) / 8);
    const value = args[index] ?? 0;
    return (offset - 16) % 8 === 0 ? value % 2 ** 32 : Math.floor(value / 2 ** 32);
  };
}
