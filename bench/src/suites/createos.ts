import { CreateosClient, processCommand } from "@paperclipai/plugin-createos/client";
import type { BenchMetric, BenchSuite } from "../bench-result.js";
import { createSandbox, startEmulator, stopEmulator } from "../createos/emulator-process.js";
import { liveHeapMiB, rawStream, throughExecute, timedExecute } from "../createos/output-measurements.js";
import { countingFetch, sequentialRoundTrips } from "../createos/round-trips.js";

const MB = 1_000_000;
/** Interleaved rounds of the fixed-cost rows (about 4 ms each): a best of 5 moved by a fifth between runs on a loaded host. */
const FIXED_COST_ROUNDS = 30;
/**
 * Rounds per output size. The raw read of 100 MB moved from 180 to 307 MB/s between runs of the
 * suite (this host's speed has two levels), so its best of 2 ranked the moment, not the code.
 */
const ROUNDS_BY_SIZE: Record<number, number> = { 1: 3, 10: 3, 100: 5 };

export const run: BenchSuite = async () => {
  const emulator = await startEmulator();
  try {
    const client = new CreateosClient({
      apiUrl: emulator.url,
      apiKey: emulator.apiKey,
      rateLimit: { burst: 1_000, refillPerMinute: 600_000 },
    });
    const sandboxId = await createSandbox(client);
    // Warm-up: JIT and sockets, not measured; the short commands too, whose code paths a long
    // output does not run (the fixed-cost rows' best came from their last rounds without it).
    await throughExecute(client, sandboxId, 2 * MB);
    await rawStream(emulator, sandboxId, 2 * MB);
    for (let i = 0; i < 10; i++) {
      await timedExecute(client, sandboxId, 1, ["-c", "printf x"]);
      await rawStream(emulator, sandboxId, 1, ["-c", "printf x"]);
    }

    // The fixed cost of one command (create, stdin close, connect, wait), to read the per-MB figures against,
    // interleaved with the raw path's (create, stdin close, connect read to its end). A `/bin/bash`
    // command without cwd, env or stdin is started as it is (`processCommand`): the same process as
    // the raw path's.
    const command = ["-c", "printf x"];
    const empty: number[] = [];
    const emptyRaw: number[] = [];
    // A command with a cwd goes through the `bash -c 'cd … && exec -- …'` wrapper; the raw path runs
    // the very wrapper execute sends: the same processes as ours, so the two differ by the protocol alone.
    const cwd = "/paperclip-workspace";
    const emptyWrapped: number[] = [];
    const emptyRawWrapped: number[] = [];
    const wrapped = [...processCommand({ command: "/bin/bash", args: command, cwd }).args];
    for (let i = 0; i < FIXED_COST_ROUNDS; i++) {
      empty.push((await timedExecute(client, sandboxId, 1, command)).ms);
      emptyRaw.push(await rawStream(emulator, sandboxId, 1, command));
      emptyWrapped.push((await timedExecute(client, sandboxId, 1, command, cwd)).ms);
      emptyRawWrapped.push(await rawStream(emulator, sandboxId, 1, wrapped));
    }
    // Its round trips, from the spans of a client handed a recording fetch (which then carries every
    // call, so its time is not the figure above).
    const counted = countingFetch();
    const countingClient = new CreateosClient({
      apiUrl: emulator.url,
      apiKey: emulator.apiKey,
      fetch: counted.fetch,
      rateLimit: { burst: 1_000, refillPerMinute: 600_000 },
    });
    await timedExecute(countingClient, sandboxId, 1, command);
    const requests = counted.spans.length;
    const roundTrips = sequentialRoundTrips(counted.spans);
    const overheadMs = Math.min(...empty);
    const rawOverheadMs = Math.min(...emptyRaw);
    const wrappedOverheadMs = Math.min(...emptyWrapped);
    const rawWrappedOverheadMs = Math.min(...emptyRawWrapped);

    const perMb: Record<number, number> = {};
    const peaks: Record<number, { heapMiB: number; rssMiB: number }> = {};
    let keptChars = 0;
    const rawSamples: number[] = [];
    for (const size of [1, 10, 100]) {
      const samples: number[] = [];
      const rounds = ROUNDS_BY_SIZE[size] ?? 3;
      for (let i = 0; i < rounds; i++) {
        const outcome = await throughExecute(client, sandboxId, size * MB);
        samples.push(outcome.ms);
        // The raw read of the same 100 MB right after each of ours, so both see the same moment of the machine.
        if (size === 100) rawSamples.push(await rawStream(emulator, sandboxId, 100 * MB));
        const previous = peaks[size];
        peaks[size] = {
          heapMiB: Math.max(previous?.heapMiB ?? 0, outcome.heapMiB),
          rssMiB: Math.max(previous?.rssMiB ?? 0, outcome.rssMiB),
        };
        keptChars = outcome.keptChars;
      }
      perMb[size] = Math.min(...samples) / size;
    }
    const rawMs = Math.min(...rawSamples);
    const live = [
      await liveHeapMiB(emulator, sandboxId, 10 * MB),
      await liveHeapMiB(emulator, sandboxId, 100 * MB),
    ];
    const oursMs = perMb[100]! * 100;
    const metrics: BenchMetric[] = [
      {
        name: "100 MB of output through execute (emulator)",
        unit: "MB/s",
        higherIsBetter: true,
        ours: round(100 / (oursMs / 1000)),
        direct: round(100 / (rawMs / 1000)),
        note: `execute reaches ${round(rawMs / oursMs)}x the raw read's throughput; best of ${ROUNDS_BY_SIZE[100]} each, interleaved`,
      },
      {
        name: "fixed cost of one command (1 byte of output)",
        unit: "ms",
        higherIsBetter: false,
        ours: round(overheadMs),
        direct: round(rawOverheadMs),
        note: `/bin/bash -c 'printf x', started as it is (no wrapper: no cwd, env or stdin); create, stdin close, connect, exit, completeness check; direct = the raw path's create, stdin close and connect read to its end, without the completeness check; best of ${FIXED_COST_ROUNDS}, interleaved`,
      },
      {
        name: "fixed cost of one command with a cwd, direct running the same wrapper script",
        unit: "ms",
        higherIsBetter: false,
        ours: round(wrappedOverheadMs),
        direct: round(rawWrappedOverheadMs),
        note: "as above with cwd /paperclip-workspace, so execute sends its bash -c 'cd -- … || exit; exec -- …' wrapper (one exec more than the bare command), and the raw path runs that same wrapper: the same processes on both sides, so the ratio is the protocol's alone",
      },
      {
        name: "HTTP round trips of one command",
        unit: "round trips",
        higherIsBetter: false,
        ours: roundTrips,
        direct: 3,
        note: `${requests} requests, overlapping ones counted once: create; then stdin close, connect and wait (the completeness check, sent before the exit) together; direct = the raw path's create, stdin close, connect one after another`,
      },
      ...[1, 10, 100].map((size) => ({
        name: `time per MB at ${size} MB`,
        unit: "ms/MB",
        higherIsBetter: false,
        ours: round(perMb[size]!),
        note: `whole command time / size, fixed cost included; best of ${ROUNDS_BY_SIZE[size] ?? 3}`,
      })),
      {
        name: "marginal time per MB, 1 → 10 MB",
        unit: "ms/MB",
        higherIsBetter: false,
        ours: round((perMb[10]! * 10 - perMb[1]!) / 9),
        note: "the slope without the fixed cost; equal slopes mean time grows linearly with output",
      },
      {
        name: "marginal time per MB, 10 → 100 MB",
        unit: "ms/MB",
        higherIsBetter: false,
        ours: round((perMb[100]! * 100 - perMb[10]! * 10) / 90),
      },
      ...[10, 100].map((size, index) => ({
        name: `peak live heap at ${size} MB`,
        unit: "MiB",
        higherIsBetter: false,
        ours: round(live[index]!),
        note: `heap and external memory after full GCs, in a separate process; without forced GC the peak heap was ${round(peaks[size]!.heapMiB)} MiB, RSS ${round(peaks[size]!.rssMiB)} MiB above baseline; the result keeps the last ${keptChars} characters`,
      })),
    ];
    return {
      suite: "createos",
      title: "CreateOS plugin: execute output throughput, scaling and memory",
      metrics,
      notes: [
        "The emulator runs in its own process (createos-emulator bin, journal backpressure on, so a measuring reader is throttled rather than evicted, rate limit off); the command is `yes … | head -c N`.",
        "Upstream's plugin-createos is not published on npm, so there is no upstream peer; the direct figure is a raw read of the same connect stream.",
        "Memory is bounded when the 100 MB peak stays at the 10 MB peak: output is kept as a 4 Mi-character tail, never whole.",
      ],
    };
  } finally {
    await stopEmulator(emulator);
  }
};

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
