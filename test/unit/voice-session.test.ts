/**
 * Invariant: the call session, driven by in-memory ports, greets first, answers a caller turn with audio
 * followed by one mark per phrase, commits to the transcript only phrases whose marks came back, and ends a
 * call where nobody speaks as `silence_timeout`, hanging up and closing the stream; a tool call the model
 * completed runs exactly once and its result reaches the next request even when the caller interrupts.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../lib/domain/agent.js';
import type { Tool } from '../../lib/domain/tool.js';
import type { LlmEvent, LlmProvider, LlmRequest, LlmToolCall } from '../../lib/vendors/llm/port.js';
import { CallSession } from '../../streaming-service/src/session/call-session.js';
import { type CallSetup } from '../../streaming-service/src/call/types.js';
import { FakeLlm, FakeStt, FakeTts } from '../fakes/voice-ports.js';
import { twilioTransport } from '../../streaming-service/src/transport/twilio.js';

const agent: Agent = {
  _id: 'agt_1',
  name: 'A',
  llm_provider: 'openai',
  llm_model: 'm',
  tts_provider: 'elevenlabs',
  tts_voice_id: 'v',
  stt_provider: 'deepgram',
  system_prompt: 'Be brief with {{contactName}}.',
  first_message: 'Hello {{contactName}}, welcome.',
  recording_enabled: false,
  ambience_enabled: false,
  workspaceId: 'ws_1',
  createdAt: '',
  updatedAt: '',
};

interface Extra {
  /** Fields over the test agent's. */
  agent?: Partial<Agent>;
  silenceTimeoutMs?: number;
  reply?: (request: LlmRequest) => string | { text?: string; toolCalls?: LlmToolCall[] };
  tools?: Tool[];
  /** Replaces the scripted model (a test that needs one that never answers). */
  llm?: LlmProvider;
  /** The fake voice's speed per text (default 1 ms of audio per character). */
  ttsMsPerChar?: (text: string) => number;
}

function session(options: Extra = {}) {
  const stt = new FakeStt();
  const llm = new FakeLlm(options.reply);
  const tts = new FakeTts(options.ttsMsPerChar);
  const sent: Record<string, any>[] = [];
  const closes: number[] = [];
  const updates: unknown[] = [];
  const setup: CallSetup = {
    callId: 'call_1',
    workspaceId: 'ws_1',
    agent: { ...agent, ...options.agent },
    contact: { _id: 'ct_1', contactName: 'Ada', phoneNumber: '+14155550100', region: 'US', workspaceId: 'ws_1', externalFields: {}, createdAt: '', updatedAt: '' },
    callerNumber: '+14155550100',
    tools: options.tools ?? [],
    callSid: 'CA1',
    streamSid: 'MZ1',
    startedAt: Date.now(),
  };
  const s = new CallSession(
    setup,
    {
      stt,
      llm: options.llm ?? llm,
      tts,
      telephony: {
        port: { updateCall: async (_a: unknown, sid: string, req: unknown) => (updates.push({ sid, req }), {}) } as never,
        account: async () => ({ accountSid: 'AC1', authToken: 't' }),
      },
      loadTool: async (id) => {
        const tool = options.tools?.find((x) => x._id === id);
        if (!tool) throw new Error('no such tool');
        return tool;
      },
      httpTools: { allowedHosts: ['127.0.0.1'] },
    },
    twilioTransport('MZ1', { send: (m) => sent.push(JSON.parse(m) as Record<string, any>), close: (code) => closes.push(code) }),
    options.silenceTimeoutMs ? { silenceTimeoutMs: options.silenceTimeoutMs } : {},
  );
  /** Twilio's side: echo every mark sent so far. */
  const echoMarks = () => {
    for (const m of sent.filter((x) => x.event === 'mark')) s.push({ kind: 'mark_echo', name: m.mark.name, atMs: performance.now() });
  };
  return { s, stt, llm, tts, sent, closes, updates, echoMarks };
}

const until = async (probe: () => boolean, timeoutMs = 5_000) => {
  const end = performance.now() + timeoutMs;
  while (!probe()) {
    if (performance.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** Starts the call, lets the greeting be heard (its mark echoed) and says `text` as a finished caller turn. */
async function greetThenSay(t: ReturnType<typeof session>, text: string): Promise<void> {
  t.s.start();
  await until(() => t.sent.some((m) => m.event === 'mark'));
  t.echoMarks();
  await until(() => t.s.state.state === 'listening');
  t.stt.emit({ type: 'transcript', text, isFinal: true, speechFinal: true, atMs: performance.now() });
}

describe('call session', () => {
  it('greets, answers a turn, and keeps only heard phrases', async () => {
    // The reply in a slow voice (1 s per character): its first word takes 5 s to play, so a caller who hangs
    // up as its first audio leaves has heard none of it, however busy the machine.
    const t = session({ ttsMsPerChar: (text) => (text.startsWith('Fine') ? 1_000 : 1) });
    t.s.start();
    expect(t.s.state.state).toBe('greeting');
    await until(() => t.sent.some((m) => m.event === 'mark'));
    expect(t.sent[0]!.event).toBe('media');
    expect(t.tts.spoken[0]).toBe('Hello Ada, welcome.');
    t.echoMarks();
    await until(() => t.s.state.state === 'listening');

    const greetingFrames = t.sent.filter((m) => m.event === 'media').length;
    t.stt.emit({ type: 'transcript', text: 'How are you?', isFinal: true, speechFinal: true, atMs: performance.now() });
    await until(() => t.sent.filter((m) => m.event === 'media').length > greetingFrames);
    expect(t.llm.requests[0]!.messages).toEqual([
      { role: 'system', content: 'Be brief with Ada.' },
      { role: 'assistant', content: 'Hello Ada, welcome.' },
      { role: 'user', content: 'How are you?' },
    ]);
    // The reply's mark is never echoed: the caller hangs up as it starts, so the reply was not heard.
    t.s.push({ kind: 'end', reason: 'stop', atMs: performance.now() });
    const outcome = await t.s.ended;
    expect(outcome.reason).toBe('customer_hangup');
    expect(outcome.transcript).toBe('agent: Hello Ada, welcome.\nuser: How are you?');
    expect(t.stt.closed).toBe(true);
    expect(t.updates).toEqual([]);
  });

  it('says goodbye to a silent caller, then ends the call as silence_timeout and hangs up', async () => {
    const t = session({ silenceTimeoutMs: 50 });
    t.s.start();
    await until(() => t.sent.some((m) => m.event === 'mark'));
    t.echoMarks();
    // The goodbye is its own utterance: the call ends once it has played, not before.
    await until(() => t.sent.filter((m) => m.event === 'mark').length >= 2);
    expect(t.closes).toEqual([]);
    t.echoMarks();
    const outcome = await t.s.ended;
    expect(t.s.conversation.entries.filter((e) => e.type === 'agent').map((e) => e.handle.playedText()).at(-1)).toBe('Goodbye!');
    expect(outcome.reason).toBe('silence_timeout');
    expect(t.updates).toEqual([{ sid: 'CA1', req: { status: 'completed' } }]);
    expect(t.closes).toEqual([1000]);
  });

  it('runs a completed tool call exactly once and keeps its result across a barge-in', async () => {
    let hits = 0;
    let answered = false;
    const server = createServer((_req, res) => {
      hits += 1;
      setTimeout(() => {
        res.end('{"status":"shipped"}');
        answered = true;
      }, 200);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const tool: Tool = {
      _id: 'tool_1', name: 'Check order', type: 'http', description: 'Order status', workspaceId: 'ws_1',
      config: { method: 'GET', url: `http://127.0.0.1:${port}/orders` }, parameters: [], createdAt: '', updatedAt: '',
    };
    const call: LlmToolCall = { id: 'call_a', name: 'check_order', arguments: '{}' };
    const t = session({
      tools: [tool],
      reply: (req) => (req.messages.some((m) => m.role === 'tool') ? 'It has shipped.' : { text: 'Let me check that for you.', toolCalls: [call] }),
    });
    try {
      await greetThenSay(t, 'Where is my order?');
      await until(() => hits === 1);
      // The caller talks over the agent while the tool is running.
      t.stt.emit({ type: 'transcript', text: 'Wait, actually', isFinal: false, speechFinal: false, atMs: performance.now() });
      await until(() => t.sent.some((m) => m.event === 'clear'));
      await until(() => answered);
      await until(() => t.s.turnHost.executedToolCalls.size === 1 && t.s.conversation.messages().some((m) => m.role === 'tool'));
      // The interrupted reply did not ask the model again; the next turn's request carries the result.
      expect(t.llm.requests).toHaveLength(1);
      t.stt.emit({ type: 'transcript', text: 'Hello?', isFinal: true, speechFinal: true, atMs: performance.now() });
      await until(() => t.llm.requests.length === 2);
      const second = t.llm.requests[1]!.messages;
      const asked = second.filter((m) => m.role === 'assistant' && m.toolCalls?.length);
      expect(asked).toEqual([{ role: 'assistant', content: expect.any(String), toolCalls: [call] }]);
      // Only what had played of the phrase before the interruption, cut words marked: a prefix of it.
      const heard = String(asked[0]!.content);
      expect('Let me check that for you.'.startsWith(heard.replace(/—$/, ''))).toBe(true);
      expect(second.find((m) => m.role === 'tool')).toMatchObject({ toolCallId: 'call_a', content: expect.stringContaining('shipped') });
      expect(hits).toBe(1);
    } finally {
      t.s.end('stop');
      await t.s.ended;
      server.close();
    }
  });

  it('a caller who speaks up while the agent is still thinking interrupts the reply before any audio', async () => {
    // A model that thinks until it is aborted: the reply stays in `thinking`, with nothing audible.
    const aborted: string[] = [];
    const thinker: LlmProvider = {
      id: 'openai',
      async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        aborted.push(String(request.messages.at(-1)?.content));
      },
    };
    const t = session({ llm: thinker });
    try {
      await greetThenSay(t, 'Book me a table');
      await until(() => t.s.state.state === 'thinking');
      // Two real words, not yet a finished turn: enough to take the floor from a thinking agent.
      const spokeAt = performance.now();
      t.stt.emit({ type: 'transcript', text: 'No wait', isFinal: false, speechFinal: false, atMs: spokeAt });
      await until(() => t.s.interruptions.length === 1);
      expect(t.s.interruptions).toEqual([{ handleId: expect.any(String), atMs: spokeAt, clearedAtMs: expect.any(Number) }]);
      expect(t.s.state.state).toBe('listening');
      await until(() => aborted.length === 1);
      expect(aborted).toEqual(['Book me a table']);
    } finally {
      t.s.end('stop');
      await t.s.ended;
    }
  });

  it('the caller can cut the greeting short when the agent allows it: two words while it plays interrupt it', async () => {
    const t = session({ agent: { first_message_interruptible: true } });
    try {
      t.s.start();
      await until(() => t.sent.some((m) => m.event === 'mark'));
      expect(t.s.state.state).toBe('greeting');
      t.stt.emit({ type: 'transcript', text: 'Hold on', isFinal: false, speechFinal: false, atMs: performance.now() });
      await until(() => t.s.interruptions.length === 1);
      expect(t.sent.some((m) => m.event === 'clear')).toBe(true);
      expect(t.s.state.state).toBe('listening');
      // Nothing is playing now: another interruption (a late VAD decision) changes nothing.
      const clears = t.sent.filter((m) => m.event === 'clear').length;
      t.s.interrupt(performance.now());
      expect(t.s.interruptions).toHaveLength(1);
      expect(t.sent.filter((m) => m.event === 'clear')).toHaveLength(clears);
    } finally {
      t.s.end('stop');
      await t.s.ended;
    }
  });

  it('keeps the greeting whole by default: words over it are answered once it has played', async () => {
    const t = session();
    try {
      t.s.start();
      await until(() => t.sent.some((m) => m.event === 'mark'));
      t.stt.emit({ type: 'transcript', text: 'Hold on', isFinal: true, speechFinal: true, atMs: performance.now() });
      await until(() => t.s.greeting.holding);
      expect(t.s.state.state).toBe('greeting');
      expect(t.llm.requests).toHaveLength(0);
      t.echoMarks();
      await until(() => t.llm.requests.length === 1);
      expect(t.llm.requests[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'Hold on' });
      expect(t.sent.some((m) => m.event === 'clear')).toBe(false);
      expect(t.s.interruptions).toHaveLength(0);
    } finally {
      t.s.end('stop');
      const outcome = await t.s.ended;
      expect(outcome.transcript.split('\n').slice(0, 2)).toEqual(['agent: Hello Ada, welcome.', 'user: Hold on']);
    }
  });

  it('wait_for_caller: says nothing until the caller speaks, then the first message answers them', async () => {
    const t = session({ agent: { first_message_mode: 'wait_for_caller' } });
    try {
      t.s.start();
      expect(t.s.state.state).toBe('listening');
      t.stt.emit({ type: 'transcript', text: 'Hello?', isFinal: true, speechFinal: true, atMs: performance.now() });
      await until(() => t.sent.some((m) => m.event === 'mark'));
      t.echoMarks();
      await until(() => t.s.state.state === 'listening');
      // The first message, not the model, answered.
      expect(t.llm.requests).toHaveLength(0);
      expect(t.tts.spoken).toEqual(['Hello Ada, welcome.']);
      t.stt.emit({ type: 'transcript', text: 'I need a table', isFinal: true, speechFinal: true, atMs: performance.now() });
      await until(() => t.llm.requests.length === 1);
    } finally {
      t.s.end('stop');
      const outcome = await t.s.ended;
      expect(outcome.transcript.split('\n').slice(0, 3)).toEqual(['user: Hello?', 'agent: Hello Ada, welcome.', 'user: I need a table']);
    }
  });

  it('model_generated: the model writes the greeting, told so in a message nobody hears', async () => {
    const t = session({ agent: { first_message_mode: 'model_generated' }, reply: (r) => (r.messages.length === 2 ? 'Good morning Ada!' : 'Fine, thank you.') });
    try {
      t.s.start();
      expect(t.s.state.state).toBe('greeting');
      await until(() => t.sent.some((m) => m.event === 'mark'));
      const [first] = t.llm.requests;
      expect(first!.messages.map((m) => m.role)).toEqual(['system', 'user']);
      expect(first!.messages[1]!.content).toMatch(/nothing has been said yet/);
      t.echoMarks();
      await until(() => t.s.state.state === 'listening');
      expect(t.tts.spoken).toEqual(['Good morning Ada!']);
    } finally {
      t.s.end('stop');
      const outcome = await t.s.ended;
      expect(outcome.transcript).toBe('agent: Good morning Ada!');
    }
  });

  it('apologizes and listens again when the model fails on a turn, instead of hanging up', async () => {
    let calls = 0;
    const t = session({
      reply: () => {
        calls += 1;
        // The turn's request and its one retry (llm-chain.ts) both fail.
        if (calls <= 2) throw new Error('model unavailable');
        return 'Back again.';
      },
    });
    await greetThenSay(t, 'Hi?');
    await until(() => t.tts.spoken.includes('Sorry, I missed that. Could you say it again?'));
    await until(() => t.sent.filter((m) => m.event === 'mark').length === 2);
    t.echoMarks();
    await until(() => t.s.state.state === 'listening');
    t.stt.emit({ type: 'transcript', text: 'Hello?', isFinal: true, speechFinal: true, atMs: performance.now() });
    await until(() => t.sent.filter((m) => m.event === 'mark').length === 3);
    t.echoMarks();
    await until(() => t.s.state.state === 'listening');
    t.s.end('stop');
    const outcome = await t.s.ended;
    expect(outcome.reason).toBe('customer_hangup');
    expect(outcome.transcript.split('\n')).toEqual([
      'agent: Hello Ada, welcome.',
      'user: Hi?',
      'agent: Sorry, I missed that. Could you say it again?',
      'user: Hello?',
      'agent: Back again.',
    ]);
  });
});
