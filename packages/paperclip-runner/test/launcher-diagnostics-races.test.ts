import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  expectWellFormedDiagnostic,
  DIAGNOSTIC_FILE as FILE,
  faultEnv,
  fileMode,
  DIAGNOSTIC_LIMIT as LIMIT,
  launcherForFile,
} from "./helpers/launcher-for-file.js";
import { PERSIST_PAUSE_PRELOAD, PERSIST_PHASES, pausedAt } from "./helpers/persist-pause.js";

const { launch, localArgs, directoryOf } = launcherForFile("runnerd-launcher-races-");

describe("daemons failing at once into one directory", { timeout: 60_000 }, () => {
  it("all persist; the file is one complete diagnostic of one of them; no temporary is left", async () => {
    const directory = await directoryOf("0700");
    const runs = ["a", "b", "c", "d"].map((name) => {
      const { env, suffix } = faultEnv(`together-${name}`);
      return { suffix, run: launch(localArgs(directory), env) };
    });
    const results = await Promise.all(runs.map(({ run }) => run.done));
    for (const result of results) {
      expect(result.code).toBe(1);
      expect(result.stderr).not.toContain("could not persist");
    }
    expect(await readdir(directory)).toEqual([FILE]);
    const bytes = await readFile(join(directory, FILE));
    const marker = /^paperclip-runnerd: uncaught exception: begin (together-[a-d]) /.exec(
      bytes.toString("utf8"),
    )?.[1];
    const winner = runs.find((_, index) => marker === `together-${"abcd"[index]}`);
    expect(winner).toBeDefined();
    expectWellFormedDiagnostic(bytes, winner?.suffix ?? "", marker ?? "");
    expect(bytes.length).toBe(LIMIT);
  });
});

describe("SIGKILL while the daemon persists", { timeout: 60_000 }, () => {
  // The daemon stops itself at each phase of its atomic persist (the preload announces the
  // phase, then blocks), so every phase is killed on every run, wherever the scheduler is.
  it.each(PERSIST_PHASES)(
    "at %s: the old diagnostic or the new complete one, never a part; the next daemon sweeps",
    async (phase) => {
      const directory = await directoryOf("0700");
      const path = join(directory, FILE);
      const first = faultEnv(`old-${phase}`);
      expect((await launch(localArgs(directory), first.env).done).code).toBe(1);
      const old = await readFile(path);
      expectWellFormedDiagnostic(old, first.suffix, `old-${phase}`);

      const { env, suffix } = faultEnv(`new-${phase}`, { PERSIST_PAUSE_AT: phase });
      const run = launch(localArgs(directory), env, true, ["--import", PERSIST_PAUSE_PRELOAD]);
      const temporary = await pausedAt(run.child, phase);
      expect(temporary).toBe(`.${FILE}.${run.child.pid}.0.tmp`);
      run.child.kill("SIGKILL");
      const killed = await run.done;
      expect(killed.signal).toBe("SIGKILL");
      // The line the daemon printed before persisting is the text it was writing.
      const written = Buffer.from(killed.stderr.slice(0, killed.stderr.indexOf(`\npaused at ${phase} `)));
      expectWellFormedDiagnostic(written, suffix, `new-${phase}`);

      expect(await fileMode(path)).toBe(0o600);
      const target = await readFile(path);
      if (phase === "renamed") {
        expect(target.equals(written)).toBe(true);
        expect(await readdir(directory)).toEqual([FILE]);
      } else {
        expect(target.equals(old)).toBe(true);
        expect((await readdir(directory)).sort()).toEqual([temporary, FILE]);
        expect(await fileMode(join(directory, temporary))).toBe(0o600);
        const expected = { created: 0, partial: Math.floor(written.length / 2), synced: written.length }[
          phase
        ];
        expect((await readFile(join(directory, temporary))).equals(written.subarray(0, expected))).toBe(true);
      }

      const final = await launch(localArgs(directory), faultEnv("final", { FAULT_NOISE_BYTES: "10" }).env)
        .done;
      expect(final.code).toBe(1);
      expect(await readdir(directory), final.stderr).toEqual([FILE]);
      expect(await readFile(path, "utf8")).toMatch(/^paperclip-runnerd: uncaught exception: begin final /);
    },
  );
});
