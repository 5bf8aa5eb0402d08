/**
 * The shipped ambience beds' names and level, apart from the agent schema so that the dashboard's preview
 * (which synthesizes the same beds, lib/media/ambience-beds.ts) carries no zod.
 */
export const AMBIENCE_SOUNDS = ['office', 'call_center', 'cafe', 'street', 'static'] as const;
export type AmbienceSound = (typeof AMBIENCE_SOUNDS)[number];

/** What `ambience_enabled: true` plays when the agent names no `ambience`: a quiet office, as Vapi's phone default. */
export const AMBIENCE_DEFAULTS = { sound: 'office', volume: 0.3 } as const satisfies { sound: AmbienceSound; volume: number };

/**
 * The level (16-bit RMS) every shipped bed is normalized to before its volume applies: about -20 dBFS, a
 * loud room. At the default volume 0.3 the bed sits near -30 dBFS, 15-20 dB under a TTS voice.
 */
export const BED_REFERENCE_RMS = 3_277;

/** Whether `sound` names a shipped bed (else it is a custom file's URL). */
export const isShippedSound = (s: string): s is AmbienceSound => (AMBIENCE_SOUNDS as readonly string[]).includes(s);
