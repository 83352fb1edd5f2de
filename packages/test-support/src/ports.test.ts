import { once } from "node:events";
import { connect, createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePorts, portWasTaken, refusedPort, startOnFreePorts } from "./ports.js";
import { refusedPortForTest } from "./refused-port-for-test.js";

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server listening on `port`, closed after the test; rejects as Node's listen does (EADDRINUSE). */
async function listenOn(port: number): Promise<Server> {
  const server = createServer();
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  servers.push(server);
  return server;
}

async function connectError(port: number): Promise<string | undefined> {
  const socket = connect(port, "127.0.0.1");
  try {
    await once(socket, "connect");
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  } finally {
    socket.destroy();
  }
}

describe("freePorts", () => {
  it("gives distinct ports", async () => {
    // Picked one after another with nothing held, two ports could be the same one.
    const ports = await freePorts(8);
    expect(new Set(ports).size).toBe(8);
    expect(ports.every((port) => port > 0)).toBe(true);
  });
});

describe("portWasTaken", () => {
  it("tells a start that lost its port from one that failed otherwise", () => {
    const listenError = Object.assign(
      new Error("listen EADDRINUSE: address already in use 127.0.0.1:41234"),
      {
        code: "EADDRINUSE",
      },
    );
    expect(portWasTaken(listenError)).toBe(true);
    expect(
      portWasTaken(new Error('LOG:  could not bind IPv4 address "127.0.0.1": Address already in use')),
    ).toBe(true);
    expect(portWasTaken(new Error("the registry did not start", { cause: listenError }))).toBe(true);
    expect(portWasTaken(new Error("GET /api/health reports ok: not within 240000 ms"))).toBe(false);
    expect(portWasTaken(Object.assign(new Error("listen EACCES"), { code: "EACCES" }))).toBe(false);
    expect(portWasTaken(undefined)).toBe(false);
  });
});

describe("startOnFreePorts", () => {
  it("retries a start whose port was taken between the pick and the bind, on a new port", async () => {
    const given: number[] = [];
    const server = await startOnFreePorts("a test server", async ([port]) => {
      given.push(port);
      // Another process gets there first, on the first attempt only.
      if (given.length === 1) await listenOn(port);
      return listenOn(port);
    });
    expect(given).toHaveLength(2);
    expect(given[1]).not.toBe(given[0]);
    expect(server.listening).toBe(true);
  });

  it("gives each start `count` distinct ports", async () => {
    const ports = await startOnFreePorts("a pair", async (pair) => pair, { count: 2 });
    expect(ports).toHaveLength(2);
    expect(new Set(ports).size).toBe(2);
  });

  it("throws any other failure at once, without a retry", async () => {
    let starts = 0;
    const failure = new Error("the server's config is invalid");
    await expect(
      startOnFreePorts("a test server", async () => {
        starts += 1;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(starts).toBe(1);
  });

  it("gives up after `attempts` starts that each lost their port, saying so", async () => {
    let starts = 0;
    const error = await startOnFreePorts(
      "a test server",
      async ([port]) => {
        starts += 1;
        await listenOn(port);
        return listenOn(port);
      },
      { attempts: 3 },
    ).catch((caught: unknown) => caught as Error);
    expect(starts).toBe(3);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      "a test server: a port picked for it was taken before it bound it, on each of 3 attempts",
    );
    expect(((error as Error).cause as NodeJS.ErrnoException).code).toBe("EADDRINUSE");
  });
});

describe("refusedPort", () => {
  it("refuses connections, and nothing can listen on it until it is closed", async () => {
    const held = await refusedPort();
    try {
      expect(await connectError(held.port)).toBe("ECONNREFUSED");
      await expect(listenOn(held.port)).rejects.toMatchObject({ code: "EADDRINUSE" });
    } finally {
      await held.close();
    }
  });

  it("is held for the current test by refusedPortForTest", async () => {
    const port = await refusedPortForTest();
    expect(await connectError(port)).toBe("ECONNREFUSED");
  });
});
