import { createServer, type Server } from "node:net";

/**
 * A loopback port that was free a moment ago (the OS picks it). Nothing holds it afterwards: a
 * process that binds it later can find it taken, and should retry with another (see
 * `lostPortRace`).
 */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port as number;
}

/** `count` distinct loopback ports that were free a moment ago: each is held until all are picked. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const server = createServer();
      servers.push(server);
      ports.push(
        await new Promise<number>((resolve, reject) => {
          server.once("error", reject);
          server.listen(0, "127.0.0.1", () => {
            const address = server.address();
            resolve(typeof address === "object" && address !== null ? address.port : 0);
          });
        }),
      );
    }
    return ports;
  } finally {
    await Promise.all(
      servers.map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))),
    );
  }
}

/** Whether a server's output says a port it was given had been taken since `freePort` picked it. */
export function lostPortRace(output: string): boolean {
  return /EADDRINUSE|address already in use/i.test(output);
}
