import {
  type ChatCompletionsStub,
  startChatCompletionsStub,
} from "@paperclipai/test-support/chat-completions-stub";
import { finishTool, offersTools } from "@paperclipai/test-support/opencode-on-stub";
import { finishArguments } from "./whole-server-run.js";

/**
 * The model of the whole-server OpenCode tests: on OpenCode's first request it finishes the task
 * with `answer` (`paperclip_finish`), on the second (the bridge's reply) it says `answer`.
 */
export function startOpencodeAnswerStub(answer: string): Promise<ChatCompletionsStub> {
  return startChatCompletionsStub([
    { when: offersTools, tool: finishTool, arguments: finishArguments(answer) },
    { when: offersTools, text: answer },
  ]);
}
