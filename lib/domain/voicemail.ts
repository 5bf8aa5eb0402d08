import type { Agent } from './agent.js';
import { CALL_CONTROL_DEFAULTS } from './agent.js';

/**
 * Answering machines (docs/telephony.md, Voicemail). Twilio's asynchronous AMD connects the call at once
 * (a human hears the agent without a pause) and posts its verdict, `AnsweredBy`, to a callback later:
 * `human`, `machine_start` (a machine; with `Enable`, as soon as it is recognised), `machine_end_beep`,
 * `machine_end_silence`, `machine_end_other` (with `DetectMessageEnd`: the greeting is over, leave the
 * message now), `fax`, or `unknown` (no verdict within the timeout).
 */
export const ANSWERED_BY = ['human', 'machine_start', 'machine_end_beep', 'machine_end_silence', 'machine_end_other', 'fax', 'unknown'] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];

/** Verdicts that mean nobody is there to talk to. `unknown` is treated as a person: hanging up on one is worse. */
export const isMachine = (answeredBy: string | undefined): boolean => answeredBy === 'fax' || (answeredBy?.startsWith('machine_') ?? false);

/** A verdict after the greeting ended: the moment to speak into the mailbox. */
export const isMessageEnd = (answeredBy: string | undefined): boolean => answeredBy?.startsWith('machine_end_') ?? false;

/**
 * The `MachineDetection` mode an agent's calls ask for. Leaving a message needs the greeting's end (the
 * beep), which only `DetectMessageEnd` reports, so `leave_message` asks for it whatever the detection mode.
 */
export function machineDetectionFor(agent: Pick<Agent, 'voicemail_detection' | 'voicemail_action'>): 'Enable' | 'DetectMessageEnd' | undefined {
  const detection = agent.voicemail_detection ?? CALL_CONTROL_DEFAULTS.voicemail_detection;
  if (detection === 'off') return undefined;
  const action = agent.voicemail_action ?? CALL_CONTROL_DEFAULTS.voicemail_action;
  return detection === 'detect_message_end' || action === 'leave_message' ? 'DetectMessageEnd' : 'Enable';
}

/**
 * How long Twilio listens before answering `unknown`. 30 s is Twilio's default; a greeting longer than
 * that is rare, and the agent is already talking meanwhile (asynchronous detection).
 */
export const MACHINE_DETECTION_TIMEOUT_SECONDS = 30;
