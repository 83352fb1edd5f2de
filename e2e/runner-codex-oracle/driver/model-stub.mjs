// A loopback stub of the OpenAI Responses API (POST /v1/responses, server-sent events), scripted
// per test: each request takes the next step of the script (or the first whose `when` matches it).
// Written for this repository.
import { createServer } from "node:http";

/**
 * Steps: {text, usage?, gate?, reasoning?, deltas?} answers with an assistant message (after
 * `gate` is opened, if named; preceded by a reasoning item when `reasoning` is given; streamed
 * first as the text deltas `deltas`, whose concatenation is `text`, when given); {tool, arguments, usage?} asks for a function
 * call, {tools:[{tool, arguments}, …]} for several in one response (parallel calls);
 * `items`: raw output items sent before the message or calls; `reasoningDeltas`: the reasoning
 * summary streamed as these deltas first; a step with `text` and a call sends both;
 * `noMessage`: no assistant message at all (a response of reasoning only); a call's `rawArguments`:
 * its arguments sent as this string, as they are (not valid JSON, say); its `callId`: the call id
 * sent instead of a fresh one (two calls of one id, say); its `namespace`: the namespace of the
 * called function (an MCP server's tools); `stallAfterDeltas`: the
 * message's deltas sent, then nothing more (the response held open, never completed);
 * {stall:true} never answers (until the client goes away); {silent:true} not even with a status
 * line (the model never sends a byte); {truncate:true} starts a response
 * and ends the stream before `response.completed`; {status, message, code?, headers?} answers
 * with an HTTP error (`headers`: extra response headers, a `retry-after` say); {failed: {code,
 * message}} ends the stream with `response.failed` (the error inside a 200 stream);
 * {incomplete: reason} ends it with `response.incomplete` (`max_output_tokens`, say);
 * `incompleteAfterDeltas: reason` does so after the message's deltas. A step's `usage` may carry
 * `cached_tokens` and `reasoning_tokens`; its `headers` are sent on a 200 response too (Codex's
 * rate-limit headers, say).
 *
 * `when`: a predicate on the request's body. A request takes the first step of the script that has
 * no `when` or whose `when` holds for it, so requests that race (a sub-agent's beside its parent's)
 * each get the step meant for them whatever order they come in; a script without `when` is taken
 * in order, one step a request.
 */
export async function startModelStub(initialScript = []) {
  const script = [...initialScript];
  const requests = [];
  const gates = new Map();
  const sockets = new Set();
  let sequence = 0;
  const gate = (name) => {
    let entry = gates.get(name);
    if (entry === undefined) {
      let open;
      const opened = new Promise((resolve) => {
        open = resolve;
      });
      entry = { opened, open };
      gates.set(name, entry);
    }
    return entry;
  };
  const server = createServer((request, response) => {
    if (request.method !== "POST" || !request.url.endsWith("/responses")) {
      response.writeHead(404).end();
      return;
    }
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      requests.push(body);
      const index = script.findIndex((entry) => entry.when === undefined || entry.when(body));
      const step = index === -1 ? { text: "(the stub's script is exhausted)" } : script.splice(index, 1)[0];
      void answer(step, response);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function answer(step, response) {
    if (step.silent) return; // held open, no byte sent, until the client closes it
    if (step.status !== undefined) {
      response.writeHead(step.status, { "content-type": "application/json", ...step.headers });
      response.end(
        JSON.stringify({
          error: { message: step.message ?? "stub error", type: "server_error", code: step.code ?? null },
        }),
      );
      return;
    }
    sequence += 1;
    const id = `resp_stub_${sequence}`;
    response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      ...step.headers,
    });
    const send = (type, data) =>
      response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send("response.created", { response: { id } });
    if (step.stall) return; // held open until the client closes it
    if (step.gate !== undefined) await gate(step.gate).opened;
    if (step.failed !== undefined || step.incomplete !== undefined) {
      // The model gives up inside the stream: no output item, a terminal event other than completed.
      if (step.failed !== undefined) send("response.failed", { response: { id, error: step.failed } });
      else send("response.incomplete", { response: { id, incomplete_details: { reason: step.incomplete } } });
      response.end();
      return;
    }
    if (step.truncate) {
      // A stream cut mid-response: a message begun, never finished, no response.completed.
      send("response.output_item.added", {
        output_index: 0,
        item: { type: "message", role: "assistant", id: `msg_${sequence}`, content: [] },
      });
      response.end();
      return;
    }
    const items = [];
    if (step.reasoning !== undefined) {
      items.push({
        type: "reasoning",
        id: `rs_${sequence}`,
        summary: [{ type: "summary_text", text: step.reasoning }],
        content: [{ type: "reasoning_text", text: step.reasoning }],
      });
    }
    // Raw output items the model sends as they are (a web search call, say).
    items.push(...(step.items ?? []));
    const calls =
      step.tools ?? (step.tool !== undefined ? [{ tool: step.tool, arguments: step.arguments }] : []);
    calls.forEach((call, index) => {
      items.push({
        type: "function_call",
        id: `fc_${sequence}_${index}`,
        call_id: call.callId ?? `call_stub_${sequence}_${index}`,
        name: call.tool,
        // An MCP tool: Codex offers it as a function inside a namespace (`mcp__<server>`).
        ...(call.namespace === undefined ? {} : { namespace: call.namespace }),
        arguments: call.rawArguments ?? JSON.stringify(call.arguments ?? {}),
      });
    });
    if (!step.noMessage && (calls.length === 0 || step.text !== undefined)) {
      items.push({
        type: "message",
        role: "assistant",
        id: `msg_${sequence}`,
        content: [{ type: "output_text", text: step.text }],
      });
    }
    for (const [index, item] of items.entries()) {
      if (step.reasoningDeltas !== undefined && item.type === "reasoning") {
        send("response.output_item.added", { output_index: index, item: { ...item, summary: [] } });
        send("response.reasoning_summary_part.added", {
          item_id: item.id,
          output_index: index,
          summary_index: 0,
          part: { type: "summary_text", text: "" },
        });
        for (const delta of step.reasoningDeltas) {
          send("response.reasoning_summary_text.delta", {
            item_id: item.id,
            output_index: index,
            summary_index: 0,
            delta,
          });
        }
      }
      if (step.deltas !== undefined && item.type === "message") {
        send("response.output_item.added", { output_index: index, item: { ...item, content: [] } });
        for (const delta of step.deltas) {
          send("response.output_text.delta", {
            item_id: item.id,
            output_index: index,
            content_index: 0,
            delta,
          });
        }
        if (step.stallAfterDeltas) return; // held open until the client closes it
        if (step.incompleteAfterDeltas !== undefined) {
          // The model stops mid-message: its deltas sent, then `response.incomplete`.
          send("response.incomplete", {
            response: { id, incomplete_details: { reason: step.incompleteAfterDeltas } },
          });
          response.end();
          return;
        }
      }
      send("response.output_item.done", { output_index: index, item });
    }
    const usage = step.usage ?? { input_tokens: 10, output_tokens: 5 };
    send("response.completed", {
      response: {
        id,
        usage: {
          input_tokens: usage.input_tokens,
          input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
          output_tokens: usage.output_tokens,
          output_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
          total_tokens: usage.input_tokens + usage.output_tokens,
        },
      },
    });
    response.end();
  }

  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    /** Appends steps for the next requests. */
    push: (...steps) => script.push(...steps),
    /** Drops the steps no request took (the turn they were for ended before asking). */
    discard: () => script.splice(0),
    open: (name) => gate(name).open(),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The `-c` overrides that point Codex at the stub (as codex's own app-server tests configure it). */
export function stubProviderArgs(baseUrl) {
  return [
    "-c",
    'model="mock-model"',
    "-c",
    'model_provider="mock_provider"',
    "-c",
    'model_providers.mock_provider.name="mock provider"',
    "-c",
    `model_providers.mock_provider.base_url="${baseUrl}"`,
    "-c",
    'model_providers.mock_provider.wire_api="responses"',
    "-c",
    "model_providers.mock_provider.request_max_retries=0",
    "-c",
    "model_providers.mock_provider.stream_max_retries=0",
    // Codex 0.156.1's AGENTS.md loader starts a bwrap helper the workspace profile denies.
    "-c",
    "project_doc_max_bytes=0",
  ];
}
