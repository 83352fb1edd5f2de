import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { PaperclipError } from "../paperclip-error.js";
import { planCli } from "./run-cli.js";

async function writeDocs(dir: string, contents: Map<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  // Remove pages of the previous run first so the directory mirrors the registry exactly.
  for (const name of await readdir(dir)) {
    if (name.endsWith(".md") && !contents.has(name)) await rm(path.join(dir, name));
  }
  for (const [name, text] of contents) await writeFile(path.join(dir, name), text);
}

async function main(argv: readonly string[]): Promise<number> {
  try {
    const plan = planCli(argv);
    if (plan.files) await writeDocs(plan.files.dir, plan.files.contents);
    process.stdout.write(plan.stdout);
    return 0;
  } catch (error) {
    if (PaperclipError.is(error)) {
      process.stderr.write(`paperclip-errors: ${error.toString()}\n`);
      return error.code === "ERR_ERRORS_CLI_USAGE" ? 2 : 1;
    }
    process.stderr.write(`paperclip-errors: ${String(error)}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then((status) => {
  process.exitCode = status;
});
