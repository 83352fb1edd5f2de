import type { Readable } from "node:stream";
import { CreateosError } from "@paperclipai/errors";
import { abortableDelay } from "../client/abortable-delay.js";
import { requestTimeoutError } from "../client/attempt-errors.js";
import type { CreateosClient } from "../client/createos-client.js";
import { invalidResponse, objectField, optionalIntegerField, resourceId } from "../client/envelope.js";
import type { PacerPriority } from "../client/request-pacer.js";
import { isSandboxStatus, judgeTransition, type SandboxStatus } from "./sandbox-state.js";

export interface SandboxSpec {
  readonly shape: string;
  readonly rootfs: string | undefined;
  readonly region: string | undefined;
}

/**
 * Never retried: a create has no idempotency key, and a retry could leak a second sandbox.
 * `startSignal` stops it only before it is sent (see `CreateosRequest.startSignal`).
 */
export async function createSandbox(
  client: CreateosClient,
  spec: SandboxSpec,
  signal: AbortSignal,
  startSignal?: AbortSignal,
): Promise<string> {
  const reply = await client.json({
    method: "POST",
    path: "/sandboxes",
    json: {
      shape: spec.shape,
      ...(spec.rootfs === undefined ? {} : { rootfs: spec.rootfs }),
      ...(spec.region === undefined ? {} : { region: spec.region }),
      ingress_enabled: false,
    },
    operation: "sandbox lifecycle",
    idempotent: false,
    signal,
    ...(startSignal === undefined ? {} : { startSignal }),
  });
  return resourceId(reply.data?.id);
}

/** The sandbox's state (`gone` for a 404); retried like every idempotent call. */
export async function readSandboxStatus(
  client: CreateosClient,
  id: string,
  signal: AbortSignal,
): Promise<SandboxStatus> {
  const reply = await client.json({
    method: "GET",
    path: `/sandboxes/${resourceId(id)}`,
    operation: "sandbox lifecycle",
    idempotent: true,
    allowStatuses: [404],
    signal,
  });
  if (reply.status === 404) return "gone";
  const status = reply.data?.status;
  if (!isSandboxStatus(status)) throw invalidResponse();
  return status;
}

function stateError(status: SandboxStatus, expected: string, timedOut: boolean): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_SANDBOX_STATE",
    `CreateOS sandbox is ${status}; expected ${expected}.`,
    {
      details: { status, expected, timedOut },
    },
  );
}

/** A state a delete reply may name while the deletion completes asynchronously. */
function stillLive(status: unknown): status is SandboxStatus {
  return isSandboxStatus(status) && status !== "destroyed";
}

/**
 * Polls until `target`, bounded by `deadline` (epoch ms). `from` (the state a transition leaves)
 * is read as still in transition, until `fromUntil` (epoch ms) when given: after it, `from` is
 * the sandbox's real state and ends the wait (`ERR_CREATEOS_SANDBOX_STATE`, not timed out).
 */
export async function waitForStatus(
  client: CreateosClient,
  id: string,
  target: "running" | "paused",
  deadline: number,
  signal: AbortSignal,
  from?: SandboxStatus,
  fromUntil = Number.POSITIVE_INFINITY,
): Promise<void> {
  let delay = 20;
  for (;;) {
    const status = await readSandboxStatus(client, id, signal);
    const decision = judgeTransition(status, target, Date.now() < fromUntil ? from : undefined);
    if (decision === "done") return;
    if (decision === "fail") throw stateError(status, target, false);
    if (Date.now() + delay > deadline) throw stateError(status, target, true);
    await abortableDelay(delay, signal);
    delay = Math.min(delay * 2, 1_000);
  }
}

/** Pause or resume, reconciling with the state: a 409 means a transition is already under way. */
export async function transitionSandbox(
  client: CreateosClient,
  id: string,
  action: "pause" | "resume",
  deadline: number,
  signal: AbortSignal,
): Promise<void> {
  const target = action === "pause" ? "paused" : "running";
  const from: SandboxStatus = action === "pause" ? "running" : "paused";
  const current = await readSandboxStatus(client, id, signal);
  if (current === target) return;
  if (current === from) await requestTransition(client, id, action, signal);
  await waitForStatus(client, id, target, deadline, signal, from);
}

/** What may stop a transition's `POST` besides its signal (see `CreateosRequest`). */
export interface TransitionHooks {
  /** Stops it while it waits to start (a retry included), never once sent. */
  readonly startSignal?: AbortSignal;
  readonly onAttemptFailed?: (error: unknown) => void;
}

/**
 * The `POST` of a pause or resume alone: true when CreateOS took it (a 2xx), false for a 409
 * (a transition already under way, or a state it cannot be asked from), which is an answer too.
 */
export async function requestTransition(
  client: CreateosClient,
  id: string,
  action: "pause" | "resume",
  signal: AbortSignal,
  hooks: TransitionHooks = {},
): Promise<boolean> {
  const reply = await client.json({
    method: "POST",
    path: `/sandboxes/${resourceId(id)}/${action}`,
    operation: "sandbox lifecycle",
    idempotent: true,
    allowStatuses: [409],
    signal,
    ...hooks,
  });
  return reply.status !== 409;
}

/**
 * Deletes a sandbox (every process in it dies); 404 is success. Jumps the pacer queue. A
 * successful `DELETE` is the end, as upstream takes it, unless its reply names a state the
 * sandbox is still in (`running`, `pausing`…): then the state is read until it is ended.
 * The deadline ends the wait with a coded error whichever step it interrupts: the `DELETE`
 * itself (`ERR_CREATEOS_REQUEST_TIMEOUT`) or the reads after it (`ERR_CREATEOS_SANDBOX_STATE`
 * with `timedOut`).
 */
export async function deleteSandbox(client: CreateosClient, id: string, deadline: number): Promise<void> {
  const signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
  let lastStatus: SandboxStatus | undefined;
  try {
    const reply = await client.json({
      method: "DELETE",
      path: `/sandboxes/${resourceId(id)}`,
      operation: "sandbox lifecycle",
      idempotent: true,
      priority: "cleanup",
      allowStatuses: [404],
      signal,
    });
    const replied = reply.data?.status;
    if (reply.status === 404 || !stillLive(replied)) return;
    lastStatus = replied;
    let delay = 20;
    for (;;) {
      lastStatus = await readSandboxStatus(client, id, signal);
      if (lastStatus === "destroyed" || lastStatus === "gone") return;
      if (Date.now() + delay > deadline) throw stateError(lastStatus, "destroyed", true);
      await abortableDelay(delay, signal);
      delay = Math.min(delay * 2, 1_000);
    }
  } catch (error) {
    if (!signal.aborted || error !== signal.reason) throw error;
    throw lastStatus === undefined
      ? requestTimeoutError("sandbox lifecycle")
      : stateError(lastStatus, "destroyed", true);
  }
}

export interface ShortCommandResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `POST /exec`: a short buffered command of the plugin's own (not the caller's). */
export async function runShortCommand(
  client: CreateosClient,
  id: string,
  cmd: string,
  args: readonly string[],
  signal: AbortSignal,
  priority: PacerPriority = "normal",
): Promise<ShortCommandResult> {
  const reply = await client.json({
    method: "POST",
    path: `/sandboxes/${resourceId(id)}/exec`,
    json: { cmd, args },
    operation: "workspace command",
    idempotent: false,
    priority,
    signal,
  });
  if (reply.data === null) throw invalidResponse();
  const result = objectField(reply.data, "result");
  const stdout = result.stdout ?? "";
  const stderr = result.stderr ?? "";
  if (typeof stdout !== "string" || typeof stderr !== "string") throw invalidResponse();
  return { exitCode: optionalIntegerField(result, "exit_code"), stdout, stderr };
}

/** Runs a step of the plugin's own and insists on exit 0. */
export async function runStep(
  client: CreateosClient,
  id: string,
  step: string,
  cmd: string,
  args: readonly string[],
  signal: AbortSignal,
): Promise<ShortCommandResult> {
  const result = await runShortCommand(client, id, cmd, args, signal);
  if (result.exitCode !== 0) {
    throw new CreateosError(
      "ERR_CREATEOS_WORKSPACE_COMMAND",
      `CreateOS workspace command failed (exit ${result.exitCode}).`,
      {
        details: { step, exitCode: result.exitCode },
      },
    );
  }
  return result;
}

/** The parts every request on one file of a sandbox shares (`/files?path=…`, idempotent). */
function fileRequest(id: string, path: string, signal: AbortSignal) {
  return {
    path: `/sandboxes/${resourceId(id)}/files`,
    query: { path },
    operation: "file transfer",
    idempotent: true,
    signal,
  } as const;
}

/** A small file; text goes as it is (upstream writes and reads the lease marker as text). */
export async function putFile(
  client: CreateosClient,
  id: string,
  path: string,
  content: Uint8Array | string,
  signal: AbortSignal,
): Promise<void> {
  const body = typeof content === "string" ? { text: content } : { bytes: content };
  await client.json({ method: "PUT", ...fileRequest(id, path, signal), ...body });
}

/** `PUT /files`, streamed: `upload` is called for every attempt, so a retry sends the whole body again. */
export async function putFileStream(
  client: CreateosClient,
  id: string,
  path: string,
  upload: () => AsyncIterable<Uint8Array>,
  signal: AbortSignal,
): Promise<void> {
  await client.json({ method: "PUT", ...fileRequest(id, path, signal), upload });
}

/** The file as a stream, never held whole, or `null` when it does not exist (404). */
export async function getFileStream(
  client: CreateosClient,
  id: string,
  path: string,
  signal: AbortSignal,
): Promise<Readable | null> {
  const reply = await client.download({
    method: "GET",
    ...fileRequest(id, path, signal),
    allowStatuses: [404],
  });
  return reply.body;
}
