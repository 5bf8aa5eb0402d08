import { readFileSync } from 'node:fs';
import * as z from 'zod';
import type { CalleeBehaviour, CalleeLine } from './callee.js';

/**
 * The local Twilio stand-in's test numbers (docs/telephony.md, "Test numbers"): destinations whose callee
 * behaves one set way, so a developer can try every outcome from `npm start` as Twilio's magic test
 * numbers let one try an API call. They are in +1 202 555-0100…0199, the block the North American
 * Numbering Plan reserves for fictional use in every area code: no real person has one, and they still
 * pass our E.164 validation (a possible US number), so nothing in production is opened for them. Any other
 * destination keeps the default callee.
 */

/** The menu the phone-menu number reads, and what it says once it heard the keys. */
export const TEST_MENU = {
  prompt: 'Thank you for calling. For sales press 1, for appointments press 2.',
  menu: { '1': 'Sales, how can I help?', '2': 'Appointments desk, how can I help?' },
} as const;

/** The test numbers, by what their callee does. */
export const TEST_NUMBERS = {
  /** A person who answers and says the default lines (or the script file's lines for this number). */
  person: '+12025550100',
  busy: '+12025550101',
  noAnswer: '+12025550102',
  failed: '+12025550103',
  /** A voicemail box: greeting, beep, then it records; AMD reports a machine. */
  voicemail: '+12025550104',
  /** A phone menu that listens for keypad tones in the call's audio (the agent's `send_dtmf`). */
  phoneMenu: '+12025550105',
  /** A warm transfer's target who hears the summary and presses 1. */
  transferAccepts: '+12025550106',
  /** A warm transfer's target who hears the summary and presses 2. */
  transferDeclines: '+12025550107',
} as const;

const BEHAVIOURS: Readonly<Record<string, CalleeBehaviour>> = {
  [TEST_NUMBERS.person]: { kind: 'answer' },
  [TEST_NUMBERS.busy]: { kind: 'busy' },
  [TEST_NUMBERS.noAnswer]: { kind: 'no-answer' },
  [TEST_NUMBERS.failed]: { kind: 'failed' },
  [TEST_NUMBERS.voicemail]: { kind: 'machine' },
  [TEST_NUMBERS.phoneMenu]: { kind: 'ivr', ...TEST_MENU },
  [TEST_NUMBERS.transferAccepts]: { kind: 'transfer-target', press: '1' },
  [TEST_NUMBERS.transferDeclines]: { kind: 'transfer-target', press: '2' },
};

/** The behaviour of a test number, or undefined for any other number. */
export const testNumberBehaviour = (number: string): CalleeBehaviour | undefined => BEHAVIOURS[number];

/** One step of a script file: a line, a pause, keys, listening through a turn, or hanging up mid-turn. */
const ScriptStep = z.union([
  z.string().min(1).max(1_000),
  // `language`: espeak-ng's voice for the line, and the language a detecting recognizer stand-in reports.
  z.strictObject({ say: z.string().min(1).max(1_000), language: z.string().regex(/^[a-z]{2,3}$/, 'an ISO 639-1 code such as es').optional() }),
  z.strictObject({ pauseMs: z.number().int().min(0).max(60_000) }),
  z.strictObject({ press: z.string().regex(/^[0-9*#]{1,32}$/, 'keys 0-9, * and #') }),
  z.strictObject({ listen: z.literal(true) }),
  z.strictObject({ hangUpAfterAgentMs: z.number().int().min(0).max(600_000) }),
]);

/** The script file: destination number (E.164) to the simulated person's steps on calls to it. */
export const CalleeScripts = z.record(z.string().regex(/^\+[1-9]\d{6,14}$/, 'an E.164 number'), z.array(ScriptStep).min(1).max(200));
export type CalleeScripts = z.infer<typeof CalleeScripts>;

const toLine = (step: z.infer<typeof ScriptStep>): CalleeLine =>
  typeof step === 'object' && 'say' in step ? (step.language ? { say: step.say, language: step.language } : step.say) : step;

/**
 * Reads the script file (read on every call, so an edit applies to the next call without a restart).
 * A missing file is no scripts; a broken one is reported through `warn` and ignored, so a typo in it
 * never fails a call.
 */
export function readCalleeScripts(file: string, warn: (message: string) => void): Readonly<Record<string, readonly CalleeLine[]>> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') warn(`callee scripts: cannot read ${file}: ${String(error)}`);
    return {};
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    warn(`callee scripts: ${file} is not JSON: ${String(error)}`);
    return {};
  }
  const parsed = CalleeScripts.safeParse(json);
  if (!parsed.success) {
    warn(`callee scripts: ${file} ignored: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
    return {};
  }
  return Object.fromEntries(Object.entries(parsed.data).map(([number, steps]) => [number, steps.map(toLine)]));
}

/**
 * How the callee at `number` behaves: a test number's behaviour, else `fallback`; a person (a test person
 * or the default callee) says the script's lines for the number when the script file has them.
 */
export function calleeFor(number: string, fallback: CalleeBehaviour, scripts: Readonly<Record<string, readonly CalleeLine[]>>): CalleeBehaviour {
  const behaviour = testNumberBehaviour(number) ?? fallback;
  const lines = scripts[number];
  return lines && behaviour.kind === 'answer' ? { ...behaviour, lines } : behaviour;
}
