import {
  constants,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  type Stats,
  writeSync,
} from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { RunnerError } from "@paperclipai/errors";
import {
  assertPrivateDirectory,
  openPrivateDirectory,
  sameInode,
} from "../private-fs/open-private-directory.js";
import { assertPrivateFile, openPrivateFile } from "../private-fs/open-private-file.js";
import { errnoCode, wrapOsError } from "../private-fs/os-error.js";
import { PRIVATE_PATH_ERRORS } from "../private-fs/private-path-errors.js";
import { journalHeaderLine, journalLine } from "./parse-journal.js";
import type { StateDelta } from "./state-delta.js";

export const JOURNAL_FILE_NAME = "runner-journal.ndjson";

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * The append-only journal beside the snapshot: a header naming the snapshot,
 * then one line per commit. An append is one positioned write and one
 * `fdatasync` (the file's size is the only metadata a reader needs, and
 * `fdatasync` flushes it); the directory is synced once, when the file is
 * created, never per record.
 *
 * The checks, the write and the `fdatasync` are synchronous system calls: a
 * commit is on the path of every answer, and the event loop has nothing to do
 * meanwhile that could not wait for the disk, so a trip to the thread pool would
 * only add two thread wake-ups to each record. What arrives during the
 * `fdatasync` waits in its pipe and shares the next record (group commit).
 * Nothing else can run between the checks and the write.
 */
export class JournalFile {
  private constructor(
    private readonly dir: string,
    private readonly directory: Stats,
    private readonly handle: FileHandle,
    private offset: number,
  ) {}

  /** Opens (creating it 0600 if needed) and restarts the journal on the snapshot `base`. */
  static async open(dir: string, base: string): Promise<JournalFile> {
    const path = join(dir, JOURNAL_FILE_NAME);
    const directory = await openPrivateDirectory(dir);
    try {
      let handle: FileHandle;
      let created = false;
      try {
        handle = await open(path, CREATE_FLAGS, 0o600);
        created = true;
      } catch (error) {
        if (errnoCode(error) !== "EEXIST") throw wrapOsError("ERR_RUNNER_PRIVATE_WRITE_FAILED", error);
        handle = await openPrivateFile(path, constants.O_WRONLY);
      }
      const journal = new JournalFile(directory.path, directory.stats, handle, 0);
      try {
        if (created) await handle.chmod(0o600);
        journal.restart(base);
        // The new name must survive a power loss too: the one directory sync of the journal's life.
        if (created) await directory.handle.sync();
        return journal;
      } catch (error) {
        await handle.close();
        throw wrapOsError("ERR_RUNNER_PRIVATE_WRITE_FAILED", error);
      }
    } finally {
      await directory.handle.close();
    }
  }

  /** Bytes written since the last restart. */
  get size(): number {
    return this.offset;
  }

  /** Empties the journal and names its new snapshot; durable on return. */
  restart(base: string): void {
    this.assertStillPrivate();
    try {
      ftruncateSync(this.handle.fd, 0);
    } catch (error) {
      throw wrapOsError("ERR_RUNNER_PRIVATE_WRITE_FAILED", error);
    }
    this.offset = 0;
    this.write(journalHeaderLine(base));
  }

  /** Appends one record; durable on return. */
  append(delta: StateDelta): void {
    this.assertStillPrivate();
    this.write(journalLine(delta));
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  /**
   * Checked before every record, as the atomic private write checks before each
   * write: the directory is still the private one the journal was opened in
   * (someone may have widened or swapped it mid-run), and the journal is still
   * a private regular file of ours.
   */
  private assertStillPrivate(): void {
    let current: Stats;
    try {
      current = lstatSync(this.dir);
    } catch (error) {
      throw wrapOsError(PRIVATE_PATH_ERRORS.directoryUnavailable, error);
    }
    assertPrivateDirectory(current);
    if (!sameInode(current, this.directory)) {
      const { code, message } = PRIVATE_PATH_ERRORS.directorySwapped;
      throw new RunnerError(code, message, {
        details: { reason: "the path names another inode than the opened directory" },
      });
    }
    assertPrivateFile(fstatSync(this.handle.fd));
  }

  private write(line: string): void {
    const bytes = Buffer.from(line);
    try {
      let written = 0;
      while (written < bytes.length) {
        written += writeSync(this.handle.fd, bytes, written, bytes.length - written, this.offset + written);
      }
      this.offset += bytes.length;
      fdatasyncSync(this.handle.fd);
    } catch (error) {
      throw wrapOsError("ERR_RUNNER_PRIVATE_WRITE_FAILED", error);
    }
  }
}
