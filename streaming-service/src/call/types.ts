import type { KnowledgeUse } from '../../../lib/domain/knowledge/schema.js';
import type { KnowledgeAccess } from '../conversation/knowledge.js';
import type { CallCapability } from '../../../lib/domain/provider-key.js';
import type { AmbienceSource } from '../../../lib/media/custom-bed.js';
import type { Agent } from '../../../lib/domain/agent.js';
import type { Contact } from '../../../lib/domain/contact.js';
import type { CallEndReason } from '../../../lib/domain/history.js';
import type { CallTransfer } from '../../../lib/domain/call.js';
import type { Tool } from '../../../lib/domain/tool.js';
import type { LlmProvider } from '../../../lib/vendors/llm/port.js';
import type { SttProvider } from '../../../lib/vendors/stt/port.js';
import type { TtsProvider } from '../../../lib/vendors/tts/port.js';
import type { Conversation } from '../conversation/conversation.js';
import type { LlmChoice } from '../conversation/llm-chain.js';
import type { CallRecorder } from '../end/recording.js';
import type { SpeechHandle } from '../session/speech-handle.js';
import type { SessionTelephony } from '../session/transfer.js';
import type { SttLinkOptions } from '../session/stt-link.js';
import type { HttpToolOptions } from '../tools/http.js';
import type { TurnLatency } from './latency.js';
import { DEFAULT_LANGUAGE } from '../../../lib/domain/language-support.js';
import { PHRASES } from './phrases.js';
import type { CallFailure } from '../../../lib/domain/call-timeline.js';
import type { TimelineSnapshot } from '../session/timeline.js';
import type { HandoffOffer } from '../tools/registry.js';
import type { AgentSegment, HandoffValue } from '../../../lib/domain/handoff.js';
import type { RealtimeEndpoint } from '../../../lib/vendors/realtime/openai.js';
import type { RealtimeUsage } from '../../../lib/domain/realtime.js';

/*
 * The types a call is set up with and ends as, shared by the session, text chats, the transports and
 * end-of-call processing, so none of them needs the session class to name a call.
 */

/** Everything known about the call once its stream token has been checked. */
export interface CallSetup {
  readonly callId: string;
  readonly workspaceId: string;
  readonly agent: Agent;
  readonly contact?: Contact;
  /** The other party's number, as the token names it. */
  readonly callerNumber: string;
  /**
   * The call's `{{variables}}`, every layer merged (lib/domain/template.ts): the agent's texts are already
   * filled with them; tools are filled as they are loaded. Absent in sessions built by hand (tests).
   */
  readonly variables?: Readonly<Record<string, string>>;
  /** The call's own `metadata`, echoed in the webhooks the session sends (`call.transfer`). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** The agent-test run this conversation plays (docs/agent-tests.md): its chat replies name their tool calls. */
  readonly agentTest?: { readonly runId: string; readonly scenarioId: string };
  readonly tools: readonly Tool[];
  /** The agent's handoffs with their destinations' names (docs/handoffs.md); absent: none. */
  readonly handoffs?: readonly HandoffOffer[];
  /** The published version of the agent this setup runs; absent for one never published. */
  readonly agentVersion?: number;
  readonly callSid: string;
  readonly streamSid: string;
  /** `Date.now()` when the stream started. */
  readonly startedAt: number;
}

/** A handoff's destination as the conversation will run it (docs/handoffs.md). */
export interface HandoffTarget {
  readonly setup: CallSetup;
  readonly services: SessionServices;
  /** The published version it runs; absent for an agent never published. */
  readonly version?: number;
}

/**
 * Resolves a destination for the conversation (built at admission, call/handoff-setup.ts): undefined when it
 * is no longer an agent of the workspace (deleted since the origin was saved). `variables` become
 * `{{variables}}` of its texts.
 */
export type HandoffResolver = (agentId: string, variables: Readonly<Record<string, HandoffValue>>) => Promise<HandoffTarget | undefined>;

/** The outside world a session talks to; the server builds it from the platform's dependencies. */
export interface SessionServices {
  readonly stt: SttProvider;
  readonly llm: LlmProvider;
  readonly tts: TtsProvider;
  /** The agent's fallback transcribers, in order, for when its STT vendor stays down mid-call. */
  readonly sttFallbacks?: readonly SttProvider[];
  /** The agent's fallback models, in order, for a turn its own model failed (llm-chain.ts). */
  readonly llmFallbacks?: readonly LlmChoice[];
  /** The agent's fallback voices, in order, for when its TTS vendor stays down mid-call. */
  readonly ttsFallbacks?: readonly { readonly provider: TtsProvider; readonly voiceId: string }[];
  /** How the call is priced: the capabilities on the workspace's own vendor keys (docs/provider-keys.md). */
  readonly billing?: {
    readonly onWorkspaceKeys: readonly CallCapability[];
    /** The realtime model's vendor is reached with the workspace's own key (docs/realtime.md, "Billing"). */
    readonly realtimeOnWorkspaceKey?: boolean;
  };
  /** Telephony for transfers, keypad tones and hang-ups; absent when the call has no phone line. */
  readonly telephony?: SessionTelephony;
  /** The tool with decrypted header values, read when a call uses it. */
  loadTool(id: string): Promise<Tool>;
  readonly httpTools: Partial<HttpToolOptions>;
  /** Adds the other party's number to the workspace's do-not-call list (the `opt_out` tool); phone calls only. */
  readonly optOut?: () => Promise<void>;
  /** The keys this call's vendors use: scrubbed from every error message the call keeps (callError, events). */
  readonly knownSecrets?: readonly (string | undefined)[];
  /** Told when the provider accepted a transfer (the platform announces `call.transfer`). */
  readonly onTransfer?: (to: string) => void;
  /** The agent's knowledge bases, searchable in this workspace only; absent when it names none. */
  readonly knowledge?: KnowledgeAccess;
  /** The realtime vendor's endpoint, when the agent sets `realtime` and a key reaches it (docs/realtime.md). */
  readonly realtime?: RealtimeEndpoint;
  /** The agent's ambience bed, when it has ambience on (session/ambience.ts mixes it). */
  readonly ambience?: AmbienceSource;
  /** Resolves a handoff's destination with its own setup and vendors (set at admission; docs/handoffs.md). */
  readonly handOff?: HandoffResolver;
  /** Told when a handoff switched the agent (the platform announces `call.handoff`). */
  readonly onHandoff?: (data: Record<string, unknown>) => void;
}

export interface SessionOptions {
  /** Vendor endpointing: 300 ms of silence ends a turn, the usual setting for conversation. */
  readonly endpointingMs: number;
  /** Deepgram's recommended minimum for the utterance-end fallback. */
  readonly utteranceEndMs: number;
  /** The language of a call whose agent names none (agents stored before `language`). */
  readonly language: string;
  /** Calls are cut here; also bounds the recording's memory. Half an hour covers support calls. */
  readonly maxDurationMs: number;
  /** How long a tool may run silently before a filler phrase is spoken; about a second of silence. */
  readonly fillerAfterMs: number;
  /**
   * Said in turn, one per slow tool round, so a call with several lookups does not repeat the same words
   * (the same sentence twice sounds canned).
   */
  readonly fillerPhrases: readonly string[];
  /**
   * A tool still running this long after it started gets a second phrase. 3.5 s: the filler (at 1 s)
   * has played by then, and two or three more seconds of silence after it is when callers start asking
   * "hello?"; much later and it would come just before the 8 s tool timeout.
   */
  readonly stillWorkingAfterMs: number;
  readonly stillWorkingPhrases: readonly string[];
  /** Overrides the HTTP tool budget (8 s, tools/http.ts) for this service's calls; unset in production. */
  readonly toolTimeoutMs?: number;
  /** Overrides the recognizer link's reconnect schedule and buffers (DEFAULT_STT_LINK); unset in production. */
  readonly sttLink?: Partial<SttLinkOptions>;
  /**
   * The fixed lines below default to the agent's language (call/phrases.ts); set here, a line is said as
   * given whatever the language.
   */
  readonly goodbyePhrase: string;
  /** Said when the model fails on a turn, so the caller is asked to repeat instead of being hung up on. */
  readonly apologyPhrase: string;
  /** Said before the call ends for a failure (the recognizer or the model stayed down). */
  readonly failurePhrase: string;
  /** Level (16-bit RMS) above which caller audio counts as voice, for the STT latency figure. */
  readonly voiceRms: number;
  /**
   * A call where nobody has said anything for this long (agent idle, caller silent) is ended as
   * `silence_timeout`: an abandoned line must not hold vendor sockets open until the maximum duration.
   */
  readonly silenceTimeoutMs: number;
  /** The closing line is said this long before the duration limit (docs/telephony.md). */
  readonly closingLineBeforeMs: number;
  readonly closingPhrase: string;
  /** Said when a keypad shortcut starts a transfer, and when it fails. */
  readonly transferHoldPhrase: string;
  readonly transferFailedPhrase: string;
}

export const DEFAULT_SESSION_OPTIONS = {
  endpointingMs: 300,
  utteranceEndMs: 1_000,
  language: DEFAULT_LANGUAGE,
  maxDurationMs: 30 * 60_000,
  fillerAfterMs: 1_000,
  fillerPhrases: PHRASES.en.fillerPhrases,
  stillWorkingAfterMs: 3_500,
  stillWorkingPhrases: PHRASES.en.stillWorkingPhrases,
  goodbyePhrase: PHRASES.en.goodbyePhrase,
  apologyPhrase: PHRASES.en.apologyPhrase,
  failurePhrase: PHRASES.en.failurePhrase,
  voiceRms: 500,
  silenceTimeoutMs: 60_000,
  // Fifteen seconds: room for the line and a short "thank you" from the caller before the hang-up.
  closingLineBeforeMs: 15_000,
  closingPhrase: PHRASES.en.closingPhrase,
  transferHoldPhrase: PHRASES.en.transferHoldPhrase,
  transferFailedPhrase: PHRASES.en.transferFailedPhrase,
} as const satisfies SessionOptions;

/** What the session hands to end-of-call processing. */
export interface CallOutcome {
  readonly setup: CallSetup;
  readonly reason: CallEndReason;
  readonly endedAt: number;
  readonly transcript: string;
  readonly conversation: Conversation<SpeechHandle>;
  readonly recorder: CallRecorder;
  readonly latencies: readonly TurnLatency[];
  readonly llmUsage: { inputTokens: number; outputTokens: number };
  /** The knowledge-base chunks the answers were given (docs/knowledge.md). */
  readonly knowledge?: readonly KnowledgeUse[];
  /** The last transfer tried, with its outcome. */
  readonly transfer?: CallTransfer;
  /** The vendor failure that ended the call, when one did (the record's `callError`). */
  readonly failure?: CallFailure;
  /** The call's event timeline (GET /api/history/{id}/events). */
  readonly events?: TimelineSnapshot;
  /** The agents that ran the call, when it handed off (docs/handoffs.md). */
  readonly segments?: readonly AgentSegment[];
  /** What the realtime model counted, when it carried (part of) the call. */
  readonly realtimeUsage?: RealtimeUsage;
  /** When (epoch ms) the realtime session fell back to the cascade, if it did. */
  readonly realtimeFellBackAt?: number;
}
