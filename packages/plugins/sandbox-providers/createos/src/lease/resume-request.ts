import { PaperclipError } from "@paperclipai/errors";
import { requestTimeoutError } from "../client/attempt-errors.js";
import type { CreateosClient } from "../client/createos-client.js";
import { mayHaveActed } from "./may-have-acted.js";
import { requestTransition } from "./sandbox-api.js";

/** What CreateOS made of a resume's `POST` (see `ResumeRequest.outcome`). */
export interface ResumeOutcome {
  /** A 2xx: CreateOS took it, though a state read may show `paused` a while yet. */
  readonly accepted: boolean;
  /** Some attempt was sent and got no conclusive answer: CreateOS may still carry it out. */
  readonly unanswered: boolean;
  /** When its answer came (epoch ms), if one did: how stale a state read after it may be. */
  readonly answeredAt: number | undefined;
}

/**
 * A resume's `POST`, retries included. Neither the host's deadline nor the start of shutdown
 * cuts an attempt once sent: CreateOS may act on one its client abandoned, after any state
 * read that showed the sandbox still paused. They only stop one not yet sent (`startSignal`).
 * Only shutdown's end (`exitSignal`) or the lifecycle timeout, counted from the request's
 * start, stop the wait for its answer.
 */
export class ResumeRequest {
  #answer: Promise<boolean> | undefined;
  #unanswered = false;
  #answeredAt: number | undefined;

  constructor(
    private readonly exitSignal: AbortSignal,
    private readonly timeoutMs: number,
  ) {}

  /** Whether `send` was called (something may have been sent). */
  get started(): boolean {
    return this.#answer !== undefined;
  }

  /** Sends it; a timeout of the wait for its answer is `ERR_CREATEOS_REQUEST_TIMEOUT`. */
  send(client: CreateosClient, id: string, startSignal: AbortSignal): Promise<boolean> {
    const answerSignal = AbortSignal.any([this.exitSignal, AbortSignal.timeout(this.timeoutMs)]);
    this.#answer = requestTransition(client, id, "resume", answerSignal, {
      startSignal,
      onAttemptFailed: (error) => {
        if (mayHaveActed(error)) this.#unanswered = true;
      },
    }).then(
      (accepted) => {
        this.#answeredAt = Date.now();
        return accepted;
      },
      (error: unknown) => {
        if (!answerSignal.aborted || error !== answerSignal.reason || PaperclipError.is(error)) throw error;
        throw requestTimeoutError("sandbox lifecycle");
      },
    );
    return this.#answer;
  }

  /** Once its answer is in (or its wait over): what CreateOS made of it. */
  async outcome(): Promise<ResumeOutcome> {
    const accepted = (await this.#answer?.catch(() => false)) ?? false;
    return { accepted, unanswered: this.#unanswered, answeredAt: this.#answeredAt };
  }
}
