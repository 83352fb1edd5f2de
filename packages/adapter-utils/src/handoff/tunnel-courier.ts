import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import type { Socket } from "node:net";

/** How long a courier may take to say it listens before the proxy goes on without one. */
const READY_TIMEOUT_MS = 5_000;
/** How long a closing courier may take to exit on its channel's end before it is killed. */
const EXIT_GRACE_MS = 1_000;

export interface TunnelOffer {
  /** The bridge connection's id, from its preamble (16 hex digits). */
  readonly id: string;
  /** The connected upstream socket; the courier passes a copy, this one stays the host's. */
  readonly socket: Socket;
  /** Bytes the host has written on the proxy connection; the drained mark follows them. */
  readonly drainOffset: number;
  readonly idleMs: number;
}

/** What the courier reports about one offer. */
export interface TunnelOfferReports {
  /** The courier or the bridge could not take it (or the courier is gone): the host relays it. */
  refused(): void;
  /** The tunnel ended in the bridge, or the bridge is gone. */
  closed(): void;
}

export interface TunnelCourier {
  /**
   * Passes an upstream socket towards the bridge; `reports` hears what becomes of it
   * until the returned function forgets the offer (once its tunnel is closed).
   */
  offer(offer: TunnelOffer, reports: TunnelOfferReports): () => void;
  /** Ends the courier (its channel first, then SIGKILL) and removes its socket file. */
  close(): Promise<void>;
}

function waitForReady(child: ChildProcess): Promise<boolean> {
  return new Promise((resolve) => {
    let said = "";
    const finish = (ready: boolean) => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
      child.off("error", onExit);
      resolve(ready);
    };
    const onData = (chunk: Buffer) => {
      said += chunk.toString("latin1");
      if (said.includes("ready\n")) finish(true);
    };
    const onExit = () => finish(false);
    const timer = setTimeout(() => finish(false), READY_TIMEOUT_MS);
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
    child.once("error", onExit);
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), EXIT_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.connected) child.disconnect();
    else child.kill("SIGKILL");
  });
}

/**
 * Starts the native bridge binary as the host's courier (`--courier <socketPath>`),
 * with a Node IPC channel: Node passes sockets to a child process, and the courier
 * passes them on to the bridge over `socketPath`. Resolves `null`, and leaves nothing
 * running, when the courier cannot start; the proxy then relays every tunnel itself.
 */
export async function startTunnelCourier(binary: string, socketPath: string): Promise<TunnelCourier | null> {
  const child = spawn(binary, ["--courier", socketPath], {
    stdio: ["ignore", "pipe", "ignore", "ipc"],
    serialization: "json",
  });
  child.on("error", () => {});
  if (!(await waitForReady(child))) {
    await stop(child);
    await rm(socketPath, { force: true });
    return null;
  }
  // The proxy's own server decides how long the host lives, not its courier.
  child.unref();
  child.channel?.unref();

  const offers = new Map<string, TunnelOfferReports>();
  const reportToAll = (report: keyof TunnelOfferReports) => {
    for (const reports of [...offers.values()]) reports[report]();
  };
  child.on("message", (message: unknown) => {
    const { handoff, id } = (message ?? {}) as { handoff?: unknown; id?: unknown };
    if (handoff === "bridge-gone") reportToAll("closed");
    if (typeof id !== "string") return;
    if (handoff === "refused") offers.get(id)?.refused();
    if (handoff === "closed") offers.get(id)?.closed();
  });
  // Without a courier no offer can be answered: those still out are relayed by the host.
  child.once("exit", () => reportToAll("refused"));
  child.once("disconnect", () => reportToAll("refused"));

  return {
    offer(offer, reports) {
      const forget = () => {
        if (offers.get(offer.id) === reports) offers.delete(offer.id);
      };
      if (!child.connected || offers.has(offer.id)) {
        queueMicrotask(() => reports.refused());
        return forget;
      }
      offers.set(offer.id, reports);
      const message = { id: offer.id, drainOffset: offer.drainOffset, idleMs: offer.idleMs };
      child.send(message, offer.socket, { keepOpen: true }, (error) => {
        if (error) offers.get(offer.id)?.refused();
      });
      return forget;
    },
    async close() {
      await stop(child);
      await rm(socketPath, { force: true });
    },
  };
}
