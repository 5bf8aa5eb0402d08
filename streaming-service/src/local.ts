import type { Server } from 'node:http';
import { setLogLevel } from '../../lib/observability/log.js';
import { loadConfig } from '../../lib/config.js';
import { getDeps, setProcessEnvironment } from '../../lib/deps.js';
import type { Fallback } from '../../lib/local/platform/server.js';
import { startLlmStandins, type LlmScript, type LlmStandins } from '../../lib/local/standins/llm.js';
import { startSttStandins, type SttScript, type SttStandins } from '../../lib/local/standins/stt.js';
import { startTtsStandins, type TtsScript, type TtsStandins } from '../../lib/local/standins/tts.js';
import { platformEnvironment } from './environment.js';
import { startGeminiLiveStandin, type GeminiLiveStandin } from '../../lib/local/standins/gemini-live.js';
import { startOpenAiRealtimeStandin, type RealtimeScript, type RealtimeStandin } from '../../lib/local/standins/openai-realtime.js';
import { vendorProviders } from './providers.js';
import { createStreamingServer } from './server.js';
import type { StreamingServer } from './service.js';
import type { SessionOptions } from './call/types.js';

/** The seam tests (and the benchmark) use to script the stand-ins and tune sessions. */
export interface LocalVoiceOptions {
  readonly stt?: Partial<SttScript>;
  readonly llm?: Partial<LlmScript>;
  readonly tts?: Partial<TtsScript>;
  /** The OpenAI Realtime stand-in's script (speech-to-speech agents). */
  readonly realtime?: Partial<RealtimeScript>;
  /** The Gemini Live stand-in's script (speech-to-speech agents on `google`). */
  readonly geminiLive?: Partial<RealtimeScript>;
  readonly session?: Partial<SessionOptions>;
}

/** The streaming service inside `npm start`, with the vendor stand-ins it talks to. */
export interface LocalVoice {
  readonly streaming: StreamingServer;
  readonly stt: SttStandins;
  readonly llm: LlmStandins;
  readonly tts: TtsStandins;
  /** The OpenAI Realtime stand-in, when the platform has no OpenAI key. */
  readonly realtime?: RealtimeStandin;
  /** The Gemini Live stand-in, when the platform has no Google key. */
  readonly geminiLive?: GeminiLiveStandin;
  stop(): Promise<void>;
}

/**
 * Starts a stand-in for every STT, LLM and TTS vendor whose key is not set, merges their base URLs and
 * placeholder keys into the environment (so the handlers' config sees them), and serves `/media-stream`
 * and `GET /health` on the platform's own origin. Call after the platform environment is in place.
 */
export async function startLocalVoice(server: Server, fallbacks: Fallback[], options: LocalVoiceOptions = {}): Promise<LocalVoice> {
  const before = loadConfig();
  const [stt, llm, tts] = await Promise.all([
    startSttStandins(before, options.stt),
    startLlmStandins(before, options.llm),
    startTtsStandins(before, options.tts),
  ]);
  const realtime = before.OPENAI_API_KEY ? undefined : await startOpenAiRealtimeStandin(options.realtime);
  const geminiLive = before.GOOGLE_API_KEY ? undefined : await startGeminiLiveStandin(options.geminiLive);
  const realtimeEnv: Record<string, string> = {
    ...(realtime && { OPENAI_REALTIME_BASE_URL: realtime.baseUrl }),
    ...(geminiLive && { GOOGLE_LIVE_BASE_URL: geminiLive.baseUrl }),
  };
  const restoreEnvironment = setProcessEnvironment({ ...stt.env, ...llm.env, ...tts.env, ...realtimeEnv });
  // Read again: the vendor base URLs and keys just set are part of it now.
  const config = loadConfig();
  // Calls log from the first stream on, before any HTTP route has applied the configured level.
  setLogLevel(config.LOG_LEVEL);
  const streaming = createStreamingServer({
    environment: async () => {
      const deps = await getDeps();
      // The config this function read is the authority for vendors and the tool allow-list, whatever
      // state the process-wide dependencies were built in.
      return platformEnvironment({ ...deps, config }, vendorProviders(config));
    },
    session: options.session,
    upgradeLimit: { policy: { name: 'media-stream', ...config.RATE_LIMIT_MEDIA_STREAM } },
    webRejoinGraceMs: config.WEB_REJOIN_GRACE_MS,
    chatRejoinGraceMs: config.CHAT_REJOIN_GRACE_MS,
  });
  streaming.attach(server);
  fallbacks.push((req, res) => streaming.handleRequest(req, res));
  return {
    streaming,
    stt,
    llm,
    tts,
    ...(realtime && { realtime }),
    ...(geminiLive && { geminiLive }),
    async stop() {
      await streaming.close();
      await Promise.all([stt.stop(), llm.stop(), tts.stop(), realtime?.stop(), geminiLive?.stop()]);
      restoreEnvironment();
    },
  };
}
