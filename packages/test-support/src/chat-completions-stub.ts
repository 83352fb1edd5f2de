// A loopback stub of the OpenAI chat-completions API (POST …/chat/completions, answered as
// server-sent events, as OpenCode asks), the API OpenCode's bundled `@ai-sdk/openai-compatible`
// provider speaks. Scripted per test: a request takes the first step of the script whose `when`
// holds for its body (or that has no `when`), so OpenCode's side requests (a session title, say)
// get the step meant for them whatever order they come in.
import { createServer, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** A chat-completions request body, as far as the stub reads it. */
export interface ChatBody {
  readonly model?: string;
  readonly tools?: readonly { readonly function: { readonly name: string } }[];
  readonly messages?: readonly unknown[];
}

export type ChatStep = {
  readonly when?: (body: ChatBody) => boolean;
} & (
  | { readonly text: string }
  | { readonly tool: string | ((body: ChatBody) => string); readonly arguments?: Record<string, unknown> }
);

export interface ChatCompletionsStub {
  /** The provider's base URL (`…/v1`). */
  readonly baseUrl: string;
  /** Every request body, in arrival order. */
  readonly requests: ChatBody[];
  /** How many steps no request took yet. */
  remaining(): number;
  close(): Promise<void>;
}

/**
 * Steps: {text} answers with an assistant message; {tool, arguments} asks for one function call
 * (`arguments` an object, sent as JSON; `tool` a name, or a function of the request's body that
 * picks one of the tools it offers); `when(body)`: the requests the step answers. A request
 * no step answers gets `fallback` (a message), so an unexpected request shows in the stream
 * instead of hanging the turn.
 */
export async function startChatCompletionsStub(
  initialScript: readonly ChatStep[] = [],
  fallback = "(the stub's script is exhausted)",
): Promise<ChatCompletionsStub> {
  const script = [...initialScript];
  const requests: ChatBody[] = [];
  const sockets = new Set<Socket>();
  let sequence = 0;
  const server = createServer((request, response) => {
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatBody;
      requests.push(body);
      const index = script.findIndex((entry) => entry.when === undefined || entry.when(body));
      const step: ChatStep = index === -1 ? { text: fallback } : (script.splice(index, 1)[0] as ChatStep);
      sequence += 1;
      answer(step, body, `chatcmpl-stub-${sequence}`, response);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    remaining: () => script.length,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(step: ChatStep, body: ChatBody, id: string, response: ServerResponse): void {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const frames =
    "text" in step
      ? [chunk({ role: "assistant", content: "" }), chunk({ content: step.text }), chunk({}, "stop")]
      : [
          chunk({
            role: "assistant",
            tool_calls: [
              {
                index: 0,
                id: `call_stub_${id}`,
                type: "function",
                function: {
                  name: typeof step.tool === "function" ? step.tool(body) : step.tool,
                  arguments: JSON.stringify(step.arguments ?? {}),
                },
              },
            ],
          }),
          chunk({}, "tool_calls"),
        ];
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const frame of frames) response.write(`data: ${JSON.stringify(frame)}\n\n`);
  response.write(`data: ${JSON.stringify({ ...chunk({}), choices: [], usage })}\n\n`);
  response.end("data: [DONE]\n\n");
}
