/*
 * The exec shim's only contact with the system: Linux system calls made directly, and
 * the process entry point, for x86_64 and aarch64 (the architectures the package ships).
 * No libc: a raw call returns the kernel's answer, -errno (-4095..-1) on failure.
 *
 * _start is entered by the kernel with the stack pointer at argc, then argv, NULL, envp,
 * NULL (the ABI guarantees 16-byte alignment there on both architectures). It clears the
 * frame pointer (the end of any backtrace), passes that address to exec_shim_main, keeps
 * the stack 16-byte aligned for the call as the ABI requires, and never returns:
 * exec_shim_main ends in execve or exit_group.
 */
#ifndef PAPERCLIP_EXEC_SHIM_RAW_SYSCALL_H
#define PAPERCLIP_EXEC_SHIM_RAW_SYSCALL_H

#include <asm/unistd.h>

#if defined(__x86_64__)

static inline long raw_syscall(long number, long a, long b, long c, long d, long e) {
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    long result;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
                     : "rcx", "r11", "memory");
    return result;
}

__asm__(".text\n"
        ".global _start\n"
        ".type _start,@function\n"
        "_start:\n"
        "  xor %ebp, %ebp\n"
        "  mov %rsp, %rdi\n"
        "  and $-16, %rsp\n"
        "  call exec_shim_main\n"
        "  hlt\n");

#elif defined(__aarch64__)

static inline long raw_syscall(long number, long a, long b, long c, long d, long e) {
    register long x8 __asm__("x8") = number;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    __asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4) : "memory", "cc");
    return x0;
}

__asm__(".text\n"
        ".global _start\n"
        ".type _start,%function\n"
        "_start:\n"
        "  mov x29, xzr\n"
        "  mov x30, xzr\n"
        "  mov x0, sp\n"
        "  bl exec_shim_main\n"
        "  brk #0\n");

#else
#error "the exec shim is written for x86_64 and aarch64 only"
#endif

#endif
