import * as z from 'zod';

/**
 * Speech-to-speech agents (docs/realtime.md): `realtime: {provider, model, voice}` makes a call stream the
 * caller's audio to the vendor's realtime model and play the model's audio; the cascaded fields stay and are
 * the fallback when the realtime session cannot open or dies mid-call.
 *
 * The catalogue is the vendor's documented one, checked at save (a fixed list: OpenAI publishes no realtime
 * model listing endpoint that names voices).
 * - Models: the realtime models of `RealtimeSessionCreateRequest.model` in the `openai` SDK 6.49
 *   (`resources/realtime/realtime.d.ts`) and developers.openai.com/api/docs/models (the `gpt-audio-*` entries
 *   there are Chat Completions audio models and are left out).
 * - Voices: "Supported built-in voices are alloy, ash, ballad, coral, echo, sage, shimmer, verse, marin,
 *   and cedar" (`RealtimeAudioConfigOutput.voice`, same file; developers.openai.com/api/docs/guides/realtime-conversations).
 */
/**
 * Google (Gemini Live, `provider: "google"`): the Live API's models from ai.google.dev/gemini-api/docs/live and
 * docs.cloud.google.com/vertex-ai/generative-ai/docs/live-api ("Supported models"; the native-audio preview
 * and the half-cascade `gemini-live-2.5-flash-preview`); voices are the prebuilt voices of
 * `speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName` (ai.google.dev/gemini-api/docs/speech-generation,
 * "Voice options": Puck, Charon, Kore, Fenrir, Aoede, Leda, Orus, Zephyr and the 22 more listed there).
 */
export const REALTIME_PROVIDERS = ['openai', 'google'] as const;
export type RealtimeProvider = (typeof REALTIME_PROVIDERS)[number];

export const REALTIME_MODELS: Readonly<Record<RealtimeProvider, readonly string[]>> = {
  openai: [
    'gpt-realtime',
    'gpt-realtime-1.5',
    'gpt-realtime-2',
    'gpt-realtime-2.1',
    'gpt-realtime-2.1-mini',
    'gpt-realtime-2025-08-28',
    'gpt-realtime-mini',
    'gpt-realtime-mini-2025-10-06',
    'gpt-realtime-mini-2025-12-15',
    'gpt-4o-realtime-preview',
    'gpt-4o-realtime-preview-2024-10-01',
    'gpt-4o-realtime-preview-2024-12-17',
    'gpt-4o-realtime-preview-2025-06-03',
    'gpt-4o-mini-realtime-preview',
    'gpt-4o-mini-realtime-preview-2024-12-17',
  ],
  google: [
    'gemini-live-2.5-flash-preview',
    'gemini-2.0-flash-live-001',
    'gemini-2.5-flash-native-audio-preview-09-2025',
    'gemini-2.5-flash-native-audio-preview-12-2025',
    'gemini-2.5-flash-preview-native-audio-dialog',
    'gemini-2.5-flash-native-audio-latest',
  ],
};

export const REALTIME_VOICES: Readonly<Record<RealtimeProvider, readonly string[]>> = {
  openai: ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin', 'cedar'],
  google: [
    'Zephyr', 'Puck', 'Charon', 'Kore', 'Fenrir', 'Leda', 'Orus', 'Aoede', 'Callirrhoe', 'Autonoe', 'Enceladus', 'Iapetus', 'Umbriel', 'Algieba', 'Despina',
    'Erinome', 'Algenib', 'Rasalgethi', 'Laomedeia', 'Achernar', 'Alnilam', 'Schedar', 'Gacrux', 'Pulcherrima', 'Achird', 'Zubenelgenubi', 'Vindemiatrix',
    'Sadachbia', 'Sadaltager', 'Sulafat',
  ],
};

/** The agent's `realtime` field: which vendor's speech-to-speech model answers, in which voice. */
export const RealtimeConfig = z
  .strictObject({
    provider: z.enum(REALTIME_PROVIDERS),
    model: z.string().trim().min(1).max(100),
    voice: z.string().trim().min(1).max(100),
  })
  .superRefine((r, ctx) => {
    const models = REALTIME_MODELS[r.provider];
    if (!models.includes(r.model)) {
      ctx.addIssue({ code: 'custom', path: ['model'], message: `${r.provider} has no realtime model "${r.model}"; valid models: ${models.join(', ')}` });
    }
    const voices = REALTIME_VOICES[r.provider];
    if (!voices.includes(r.voice)) {
      ctx.addIssue({ code: 'custom', path: ['voice'], message: `${r.provider} realtime has no voice "${r.voice}"; valid voices: ${voices.join(', ')}` });
    }
  });
export type RealtimeConfig = z.infer<typeof RealtimeConfig>;

/** What a realtime model counted over a call (its `response.done` usage, summed): the vendor bills these. */
export interface RealtimeUsage {
  model: string;
  inputAudioTokens: number;
  inputTextTokens: number;
  cachedTokens: number;
  /** The cached ones that were audio (OpenAI's `cached_tokens_details.audio_tokens`), priced at the cached audio rate. */
  cachedAudioTokens?: number;
  outputAudioTokens: number;
  outputTextTokens: number;
}
