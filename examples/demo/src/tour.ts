import { PaperclipError } from "@paperclipai/errors";
import { errorsSection } from "./sections/errors.js";
import type { TourContext, TourSection } from "./tour-context.js";

interface SectionSpec {
  readonly title: string;
  /** The section module and its export, loaded when the section starts. */
  readonly load: () => Promise<TourSection>;
}

interface StepRecord {
  readonly section: string;
  readonly title: string;
  readonly ok: boolean;
  readonly summary: string;
  readonly seconds: number;
}

const sections: readonly SectionSpec[] = [
  { title: "@paperclipai/errors", load: async () => errorsSection },
  {
    title: "@paperclipai/adapter-utils: the bubblewrap sandbox",
    load: async () => (await import("./sections/sandbox.js")).sandboxSection,
  },
  {
    title: "@paperclipai/plugin-createos: CreateOS against the emulator",
    load: async () => (await import("./sections/createos.js")).createosSection,
  },
  {
    title: "@paperclipai/paperclip-runner: exactly-once across a restart",
    load: async () => (await import("./sections/runner.js")).runnerSection,
  },
  {
    title: "@paperclipai/paperclip-runner: durable mode against the real server's control plane",
    load: async () => (await import("./sections/runner-durable.js")).runnerDurableSection,
  },
  {
    title: "@paperclipai/paperclip-runner: a Codex turn against a local model stub",
    load: async () => (await import("./sections/runner-codex.js")).runnerCodexSection,
  },
  {
    title: "@paperclipai/paperclip-runner: private, redacted diagnostics",
    load: async () => (await import("./sections/runner-diagnostics.js")).runnerDiagnosticsSection,
  },
];

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const bold = (text: string) => paint("1", text);
const green = (text: string) => paint("32", text);
const red = (text: string) => paint("31", text);
const dim = (text: string) => paint("2", text);

function describeFailure(error: unknown): string {
  if (PaperclipError.is(error)) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

function createContext(section: string, records: StepRecord[]): TourContext {
  return {
    log(line) {
      for (const part of line.split("\n")) console.log(dim(`      ${part}`));
    },
    async step(title, run) {
      console.log(`  ${bold("…")} ${title}`);
      const started = performance.now();
      let ok = true;
      let summary: string;
      try {
        summary = await run();
      } catch (error) {
        ok = false;
        summary = describeFailure(error);
      }
      const seconds = (performance.now() - started) / 1000;
      records.push({ section, title, ok, summary, seconds });
      const mark = ok ? green("✔") : red("✘");
      console.log(`  ${mark} ${title}: ${ok ? summary : red(summary)} ${dim(`(${seconds.toFixed(1)} s)`)}`);
    },
  };
}

function printSummary(records: readonly StepRecord[], seconds: number): void {
  console.log(`\n${bold("Summary")}\n`);
  const width = Math.max(...records.map((record) => record.title.length));
  for (const record of records) {
    const mark = record.ok ? green("pass") : red("FAIL");
    console.log(`  ${mark}  ${record.title.padEnd(width)}  ${record.summary}`);
  }
  const failed = records.filter((record) => !record.ok).length;
  console.log(`\n${records.length - failed} of ${records.length} steps passed in ${seconds.toFixed(1)} s.`);
}

/** The sections whose title holds one of the words (any case); all of them without words. */
function sectionsNamed(words: readonly string[]): readonly SectionSpec[] {
  if (words.length === 0) return sections;
  const lowered = words.map((word) => word.toLowerCase());
  return sections.filter((section) => lowered.some((word) => section.title.toLowerCase().includes(word)));
}

async function main(words: readonly string[]): Promise<number> {
  const chosen = sectionsNamed(words);
  if (chosen.length === 0) {
    console.error(
      `no section of the tour is named by ${words.map((word) => `"${word}"`).join(" or ")}; the sections:`,
    );
    for (const section of sections) console.error(`  ${section.title}`);
    return 2;
  }
  const started = performance.now();
  const records: StepRecord[] = [];
  for (const [index, section] of chosen.entries()) {
    console.log(`\n${bold(`[${index + 1}/${chosen.length}] ${section.title}`)}`);
    const context = createContext(section.title, records);
    try {
      await (await section.load())(context);
    } catch (error) {
      records.push({
        section: section.title,
        title: section.title,
        ok: false,
        summary: describeFailure(error),
        seconds: 0,
      });
      console.log(`  ${red("✘")} ${red(describeFailure(error))}`);
    }
  }
  printSummary(records, (performance.now() - started) / 1000);
  return records.every((record) => record.ok) ? 0 : 1;
}

// `bash scripts/demo.sh codex` runs only the sections whose title names Codex.
process.exitCode = await main(process.argv.slice(2));
