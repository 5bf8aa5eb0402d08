/**
 * The vendors an agent may name for each capability. Apart from lib/domain/agent.ts so that what needs only
 * the names (the configuration's STAND_IN_VENDORS, lib/domain/stand-ins.ts) does not carry the agent schema
 * into every Lambda bundle.
 */
/** The model vendors the platform reaches with its own (or the workspace's) key; each has a stand-in. */
export const VENDOR_LLM_PROVIDERS = ['openai', 'anthropic', 'google'] as const;
/** What `llm_provider` may name: a vendor, or `custom`, the agent's own OpenAI-compatible endpoint (docs/vendors-llm.md). */
export const LLM_PROVIDERS = [...VENDOR_LLM_PROVIDERS, 'custom'] as const;
export const TTS_PROVIDERS = ['elevenlabs', 'deepgram', 'cartesia'] as const;
export const STT_PROVIDERS = ['deepgram', 'assemblyai', 'speechmatics', 'openai'] as const;
