/**
 * The vendors an agent may name for each capability. Apart from lib/domain/agent.ts so that what needs only
 * the names (the configuration's STAND_IN_VENDORS, lib/domain/stand-ins.ts) does not carry the agent schema
 * into every Lambda bundle.
 */
export const LLM_PROVIDERS = ['openai', 'anthropic', 'google'] as const;
export const TTS_PROVIDERS = ['elevenlabs', 'deepgram', 'cartesia'] as const;
export const STT_PROVIDERS = ['deepgram', 'assemblyai', 'speechmatics', 'openai'] as const;
