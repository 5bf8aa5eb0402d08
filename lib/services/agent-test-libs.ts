/**
 * What an agent-test run needs only for a model persona or a voice scenario, built beside the run
 * consumer's bundle (lib/infra/constructs/background-functions.ts) and loaded on first use
 * (./agent-test-libs-load.ts): the LLM and TTS adapters with their SDKs (OpenAI, Anthropic, Google,
 * Deepgram, ...), four times the rest of the consumer, and the voice caller's WebSocket client. A chat
 * suite with scripted callers never parses them.
 */
export { createLlmProvider } from '../vendors/llm/index.js';
export { createTtsProvider } from '../vendors/tts/index.js';
export { playVoiceScript } from './agent-test-voice-caller.js';
