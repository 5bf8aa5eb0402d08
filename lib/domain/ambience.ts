import * as z from 'zod';
import { AMBIENCE_DEFAULTS, AMBIENCE_SOUNDS, isShippedSound } from './ambience-sounds.js';

/**
 * The background bed an agent plays under its calls (docs/voice-pipeline.md, "Ambience"): one of the beds
 * we ship (lib/media/ambience-beds.ts synthesizes them; they are ours) or a WAV file the workspace hosts.
 */
export { AMBIENCE_DEFAULTS, AMBIENCE_SOUNDS, BED_REFERENCE_RMS, isShippedSound, type AmbienceSound } from './ambience-sounds.js';

/**
 * A custom bed's limits: the file is fetched once per streaming task and held decoded in memory for every
 * call that uses it. 2 MB is a minute of 16 kHz mono PCM16 (or ~11 s of 48 kHz stereo): a loop, not a playlist.
 */
export const CUSTOM_BED_MAX_BYTES = 2 * 1024 * 1024;
/** Shorter than this, a loop is heard as a loop. */
export const CUSTOM_BED_MIN_MS = 1_000;

/** `sound`: a shipped bed's name, or the https URL of a WAV file (PCM 16-bit, mono or stereo, 8-48 kHz). */
export const AmbienceSoundField = z
  .string()
  .trim()
  .min(1)
  .max(2_000)
  .refine((s) => isShippedSound(s) || /^https?:\/\//i.test(s), {
    message: `one of ${AMBIENCE_SOUNDS.join(', ')}, or the https URL of a WAV file`,
  });

export const AmbienceConfig = z.strictObject({
  sound: AmbienceSoundField,
  /**
   * Linear gain, 0-1. Shipped beds are mixed at `volume` x {@link BED_REFERENCE_RMS}; a custom file at
   * `volume` x its own level. Over 1 a bed would compete with the voice.
   */
  volume: z.number().min(0).max(1).default(AMBIENCE_DEFAULTS.volume),
});
export type AmbienceConfig = z.infer<typeof AmbienceConfig>;


/** What a call plays: the agent's bed when ambience is on, else nothing. */
export function ambienceOf(agent: { readonly ambience_enabled?: boolean; readonly ambience?: AmbienceConfig | null }): AmbienceConfig | undefined {
  if (!agent.ambience_enabled) return undefined;
  return agent.ambience ?? { ...AMBIENCE_DEFAULTS };
}
