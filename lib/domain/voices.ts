import * as z from 'zod';
import { TTS_PROVIDERS } from './providers.js';

/** One voice in a vendor's catalogue, as `GET /api/voices` lists it (docs/api.md, "Voices and models"). */
export const VoiceEntry = z
  .object({
    /** What an agent's `tts_voice_id` takes. */
    id: z.string(),
    name: z.string(),
    /** The voice's language as the vendor labels it (`en`, `en-US`), or null when it says none. */
    language: z.string().nullable(),
    /** `female`, `male` or `neutral` as the vendor labels it, or null. */
    gender: z.string().nullable(),
    /** A sample to listen to, where the vendor gives one (Cartesia's needs its key: null here). */
    previewUrl: z.string().nullable(),
  })
  .meta({ id: 'Voice', examples: [{ id: '21m00Tcm4TlvDq8ikWAM', name: 'Rachel', language: 'en', gender: 'female', previewUrl: 'https://storage.googleapis.com/eleven-public-prod/premade/voices/21m00Tcm4TlvDq8ikWAM/preview.mp3' }] });
export type VoiceEntry = z.infer<typeof VoiceEntry>;

export const VoicesQuery = z.object({ provider: z.enum(TTS_PROVIDERS) });

export const VoicesView = z
  .object({ provider: z.enum(TTS_PROVIDERS), data: z.array(VoiceEntry) })
  .meta({ id: 'Voices' });
export type VoicesView = z.infer<typeof VoicesView>;

/** A dated snapshot suffix: `-2024-08-06` (OpenAI), `-20251001` (Anthropic), `-001` (Gemini). */
const SNAPSHOT = /-(\d{4}-\d{2}-\d{2}|\d{8}|\d{3})$/;

/**
 * Whether `name` is in a vendor's model list: listed, or an alias of a listed dated snapshot (Anthropic
 * lists `claude-sonnet-4-5-20250929` and serves `claude-sonnet-4-5`), or a snapshot of a listed alias.
 * Lenient on purpose: a save is refused only when the vendor cannot mean the name.
 */
export function modelListed(models: readonly string[], name: string): boolean {
  if (models.includes(name)) return true;
  const base = name.replace(SNAPSHOT, '');
  return models.some((m) => m.replace(SNAPSHOT, '') === base);
}

/** Up to `n` entries of a catalogue that look most like `wanted` (shared prefix, then containment), for a 400's hint. */
export function closest<T>(entries: readonly T[], wanted: string, keys: (e: T) => readonly string[], n = 5): T[] {
  const w = wanted.toLowerCase();
  const score = (e: T) =>
    Math.max(
      ...keys(e).map((k) => {
        const s = k.toLowerCase();
        let p = 0;
        while (p < s.length && p < w.length && s[p] === w[p]) p += 1;
        return p + (s.includes(w) || (w.length > 2 && w.includes(s)) ? 10 : 0);
      }),
    );
  return entries
    .map((e, i) => ({ e, i, s: score(e) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, n)
    .map((x) => x.e);
}
