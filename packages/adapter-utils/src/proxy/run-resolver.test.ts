import { createSocket } from "node:dgram";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { createRunResolver } from "./run-resolver.js";

describe("createRunResolver", () => {
  it("answers from /etc/hosts, case-insensitively and with a trailing dot, without any DNS query", async () => {
    const hostsPath = path.join(tempDirForTest(), "hosts");
    await writeFile(hostsPath, "127.0.0.9 Trusted.Test\n::1 trusted.test\n");
    const resolver = createRunResolver({ hostsPath });
    try {
      expect(await resolver.resolve("TRUSTED.test.")).toEqual([
        { address: "127.0.0.9", family: 4 },
        { address: "::1", family: 6 },
      ]);
    } finally {
      resolver.close();
    }
  });

  it("reads /etc/hosts when it is made: a line the program adds later never answers", async () => {
    const hostsPath = path.join(tempDirForTest(), "hosts");
    await writeFile(hostsPath, "127.0.0.9 before.test\n");
    // No name server answers: only the hosts table made at creation can.
    const resolver = createRunResolver({ hostsPath, timeoutMs: 50, tries: 1, servers: ["127.0.0.1:9"] });
    try {
      await writeFile(hostsPath, "127.0.0.9 before.test\n203.0.113.7 api.allowed.test\n");
      expect(await resolver.resolve("before.test")).toEqual([{ address: "127.0.0.9", family: 4 }]);
      await expect(resolver.resolve("api.allowed.test")).rejects.toBeTruthy();
    } finally {
      resolver.close();
    }
  });

  it("answers localhost from the system's /etc/hosts with numeric families", async () => {
    const resolver = createRunResolver();
    try {
      const addresses = await resolver.resolve("localhost");
      expect(addresses.length).toBeGreaterThan(0);
      for (const { address, family } of addresses) {
        expect(["127.0.0.1", "::1"]).toContain(address);
        expect(family).toBe(address.includes(":") ? 6 : 4);
      }
    } finally {
      resolver.close();
    }
  });

  it("fails a name once its own bounded tries time out", async () => {
    // A name server that never answers; only this resolver's own timeout ends the lookup.
    const silent = createSocket("udp4");
    let queries = 0;
    silent.on("message", () => (queries += 1));
    await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
    const { port } = silent.address();
    const hostsPath = path.join(tempDirForTest(), "hosts");
    await writeFile(hostsPath, "");
    const resolver = createRunResolver({
      hostsPath,
      timeoutMs: 50,
      tries: 1,
      servers: [`127.0.0.1:${port}`],
    });
    try {
      const first = resolver.resolve("slow.invalid");
      await expect(first).rejects.toBeTruthy();
      expect(queries).toBeGreaterThan(0);
    } finally {
      resolver.close();
      silent.close();
    }
  });
});
