import { describe, expect, it } from "vitest";
import { closeInheritedDescriptors } from "./close-inherited-descriptors.js";

describe("closeInheritedDescriptors", () => {
  it("closes the descriptors above stdio that lack O_CLOEXEC, and only those", () => {
    const fdinfo: Record<string, string> = {
      "3": "pos:\t0\nflags:\t02000002\n", // close-on-exec: Node's own
      "17": "pos:\t0\nflags:\t02\n", // inherited
      "20": "pos:\t0\nflags:\t04002\n", // inherited, O_NONBLOCK
    };
    const closed: number[] = [];
    closeInheritedDescriptors({
      readdirSync: (() => ["0", "1", "2", "3", "17", "20", "21"]) as never,
      readFileSync: ((file: string) => {
        const text = fdinfo[String(file).split("/").pop()!];
        if (text === undefined) throw Object.assign(new Error("gone"), { code: "ENOENT" });
        return text;
      }) as never,
      closeSync: (fd: number) => void closed.push(fd),
    });
    expect(closed).toEqual([17, 20]);
  });
});
