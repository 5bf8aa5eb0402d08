import { withTelephony, type Deps } from '../../lib/deps.js';
import type { LlmProvider, LlmProviderId } from '../../lib/vendors/llm/port.js';
import type { SttProvider, SttProviderId } from '../../lib/vendors/stt/port.js';
import type { TtsProvider, TtsProviderId } from '../../lib/vendors/tts/port.js';
import type { TelephonyAccount } from '../../lib/vendors/telephony/port.js';
import { createTwilioTelephony } from '../../lib/vendors/telephony/twilio.js';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { STREAM_TOKEN_KEY_PURPOSE } from '../../lib/domain/stream-token.js';
import { WEB_SESSION_KEY_PURPOSE } from '../../lib/domain/web-session-token.js';
import { claimMeetingCall } from '../../lib/services/meetings.js';
import { getAgent } from '../../lib/store/agents.js';
import { contactIdByPhone, getContact } from '../../lib/store/contacts.js';
import { claimCallStream, heartbeatCallStream, recordConnectedCall, transferWebhookUrl } from '../../lib/services/calls.js';
import { getPhoneNumberWithToken } from '../../lib/store/phone-numbers.js';
import { recordingKey } from '../../lib/store/recordings.js';
import { getTool, listTools } from '../../lib/store/tools.js';
import { callStartedData } from '../../lib/services/call-events.js';
import { analyzeAndRecord } from '../../lib/services/call-analysis.js';
import { announce } from '../../lib/services/webhook-events.js';
import { optOutNumber } from '../../lib/services/dnc.js';
import { normalizePhone } from '../../lib/domain/phone.js';
import { finalizeCall } from './end/finalize.js';
import type { StreamingEnvironment } from './server.js';

/** Builds one call's vendor providers from the agent's provider ids. */
export interface ProviderFactory {
  stt(id: SttProviderId): SttProvider;
  llm(id: LlmProviderId): LlmProvider;
  tts(id: TtsProviderId): TtsProvider;
}

/**
 * The streaming service's environment from the platform's dependencies: the token key derived from the
 * data key, agents, contacts and tools from the table, telephony through the port (the number's own account
 * for BYOT numbers, else the platform's), history and recordings written to the table and S3.
 */
export function platformEnvironment(
  platformDeps: Deps,
  providers: ProviderFactory,
): StreamingEnvironment {
  // Transfers and hang-ups go through the provider, so the service carries the telephony adapter.
  const deps = withTelephony(platformDeps, createTwilioTelephony);
  const { db, secrets, recordings } = deps;
  return {
    tokenKey: secrets.deriveKey(STREAM_TOKEN_KEY_PURPOSE),
    loader: {
      agent: (ws, id) => getAgent(db, ws, id),
      contactById: (ws, id) => getContact(db, ws, id),
      async contactByPhone(ws, e164) {
        const id = await contactIdByPhone(db, ws, e164);
        return id ? getContact(db, ws, id) : undefined;
      },
      tools: async (ws) => [...(await listTools(db, ws)).data],
    },
    async claim(claims, start) {
      const call = await claimCallStream(deps, claims, start.streamSid);
      // Announced beside the call, not before it: the conversation must not wait on a webhook's queue.
      if (call) void announce(deps, call.workspaceId, 'call.started', callStartedData(call, new Date().toISOString()));
      return call && { maxDurationSeconds: call.maxDurationSeconds };
    },
    heartbeat: (call, streamSid) => heartbeatCallStream(deps, call, streamSid),
    web: {
      key: secrets.deriveKey(WEB_SESSION_KEY_PURPOSE),
      async claim(claims, streamSid) {
        const out = await claimMeetingCall(deps, claims, streamSid);
        if (out.kind === 'claimed') void announce(deps, out.call.workspaceId, 'call.started', callStartedData(out.call, new Date().toISOString()));
        return out;
      },
    },
    services(setup, numberId) {
      const { agent } = setup;
      const callee = normalizePhone(setup.callerNumber)?.e164;
      let account: Promise<TelephonyAccount | undefined> | undefined;
      const number = (id: string) => getPhoneNumberWithToken(db, secrets, setup.workspaceId, id);
      const resolveAccount = async (id: string): Promise<TelephonyAccount | undefined> => {
        const { number: n, authToken } = await number(id);
        if (authToken) return { accountSid: n.telephonyAccountSid, authToken };
        return deps.telephony.platformAccount();
      };
      return {
        stt: providers.stt(agent.stt_provider),
        llm: providers.llm(agent.llm_provider),
        tts: providers.tts(agent.tts_provider),
        ttsFallbacks: (agent.fallback?.tts ?? []).map((f) => ({ provider: providers.tts(f.provider), voiceId: f.voice_id ?? DEFAULT_VOICE[f.provider] })),
        sttFallbacks: (agent.fallback?.stt ?? []).map((f) => providers.stt(f.provider)),
        llmFallbacks: (agent.fallback?.llm ?? []).map((f) => ({ provider: providers.llm(f.provider), model: f.model })),
        // A browser call has no phone line: no transfer, no provider hang-up.
        ...(numberId && {
          telephony: {
            port: deps.telephony.port,
            account: () => {
              account ??= resolveAccount(numberId).catch(() => undefined);
              return account;
            },
            ourNumber: async () => (await number(numberId).catch(() => undefined))?.number.number,
            transferActionUrl: transferWebhookUrl(deps.config, { _id: setup.callId, workspaceId: setup.workspaceId }),
          },
        }),
        loadTool: (id) => getTool(db, secrets, setup.workspaceId, id),
        // Only a phone call has a number to keep off the list.
        ...(numberId && callee && { optOut: () => optOutNumber(db, setup.workspaceId, callee, setup.callId) }),
        httpTools: { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS },
        onTransfer: (to) => void announce(deps, setup.workspaceId, 'call.transfer', { callId: setup.callId, agentId: agent._id, to, at: new Date().toISOString() }),
      };
    },
    async finalize(outcome, services) {
      const record = await finalizeCall(outcome, {
        llm: services.llm,
        putRecording: (ws, callId, wav) => recordings.put(recordingKey(ws, callId), wav, 'audio/wav'),
        // Calls started through the API also settle their credits here (docs/calls.md: who settles).
        // Writing the record announces call.ended (lib/services/call-events.ts).
        putHistory: async (record) => {
          await recordConnectedCall(deps, record);
        },
      });
      // After the record and call.ended: the analysis is a second LLM request and must not delay either.
      const { setup } = outcome;
      const analysis = await analyzeAndRecord(deps, services.llm, setup.agent, {
        workspaceId: setup.workspaceId,
        callId: setup.callId,
        agentId: setup.agent._id,
        transcript: outcome.transcript,
      });
      return analysis ? { ...record, analysis } : record;
    },
  };
}
