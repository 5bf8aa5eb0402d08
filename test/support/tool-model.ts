import type { ScriptReply, ScriptRequest } from '../../lib/local/standins/llm-script.js';

type ToolCall = NonNullable<ScriptReply['toolCalls']>[number];

/**
 * The scripted model of the tool tests: answers the summary request with `summary`, a request ending with
 * tool results with `afterTool(last result)`, and a caller's turn with the tool call `call(their words)`
 * picks, or "Okay." when it picks none. Quick (400 tokens/s), so played answers stay short.
 */
export function toolModel(script: {
  summary: string;
  afterTool: (content: string) => string;
  call: (lastCallerText: string) => ToolCall | undefined;
  ttftMs?: number;
}) {
  return {
    ttftMs: script.ttftMs ?? 30,
    tokensPerSecond: 400,
    reply: (req: ScriptRequest): ScriptReply => {
      const { system, turns, endsWithToolResult, toolResults } = req.messages;
      if (/summar/i.test(system)) return { text: script.summary };
      if (endsWithToolResult) return { text: script.afterTool(toolResults.at(-1)?.content ?? '') };
      const call = script.call(turns.filter((t) => t.role === 'user').at(-1)?.text ?? '');
      return call ? { toolCalls: [call] } : { text: 'Okay.' };
    },
  };
}
