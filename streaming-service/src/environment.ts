import { configWithWorkspaceKeys } from '../../lib/vendors/workspace-keys.js';
import { realtimeEndpoint } from '../../lib/vendors/realtime/openai.js';
import { geminiLiveEndpoint } from '../../lib/vendors/realtime/gemini.js';
import { withTelephony, type Deps } from '../../lib/deps.js';
import type { CustomLlmEndpoint } from '../../lib/vendors/llm/index.js';
import type { LlmProvider, LlmProviderId } from '../../lib/vendors/llm/port.js';
import type { SttProvider, SttProviderId } from '../../lib/vendors/stt/port.js';
import type { TtsProvider, TtsProviderId } from '../../lib/vendors/tts/port.js';
import type { TelephonyAccount } from '../../lib/vendors/telephony/port.js';
import { createTwilioTelephony } from '../../lib/vendors/telephony/twilio.js';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { ambienceOf } from '../../lib/domain/ambience.js';
import { ambienceSource, CustomBeds } from '../../lib/media/custom-bed.js';
import { STREAM_TOKEN_KEY_PURPOSE } from '../../lib/domain/stream-token.js';
import { WEB_SESSION_KEY_PURPOSE } from '../../lib/domain/web-session-token.js';
import { claimMeetingCall } from '../../lib/services/meetings.js';
import { findAgent, getAgent } from '../../lib/store/agents.js';
import { agentToRun } from '../../lib/services/agent-runtime.js';
import { getVersion } from '../../lib/store/agent-versions.js';
import { contactIdByPhone, getContact } from '../../lib/store/contacts.js';
import { claimCallStream, findStreamCall, heartbeatCallStream } from '../../lib/services/call-streams.js';
import { transferWebhookUrl } from '../../lib/services/calls.js';
import { endConnectedCall } from '../../lib/services/connected-call-end.js';
import { getPhoneNumberWithToken } from '../../lib/store/phone-numbers.js';
import { recordingKey } from '../../lib/store/recordings.js';
import { getTool, listTools } from '../../lib/store/tools.js';
import { findCall, recordStreamHost } from '../../lib/store/calls.js';
import { CONTROL_TOKEN_KEY_PURPOSE, LISTEN_TOKEN_KEY_PURPOSE } from '../../lib/domain/live-control.js';
import { fillTool } from '../../lib/domain/call-template.js';
import { workspaceProviderKeys } from '../../lib/store/provider-keys.js';
import { createKnowledgeRetriever, type KnowledgeRetriever } from '../../lib/services/knowledge-query.js';
import { createKnowledgeObjects } from '../../lib/store/knowledge-objects.js';
import { createEmbeddings, type EmbeddingsProvider } from '../../lib/vendors/embeddings/openai.js';
import type { KnowledgeAccess } from './conversation/knowledge.js';
import { capabilitiesOnWorkspaceKeys, realtimeOnWorkspaceKey, type WorkspaceProviderKeys } from '../../lib/domain/provider-key.js';
import { announce } from '../../lib/services/webhook-events.js';
import { vendorKeysOfCall } from '../../lib/vendors/workspace-keys.js';
import { measureCall, summarize } from './end/measure.js';
import { chargeChatMessage, claimChat, recordChat } from '../../lib/services/chats.js';
import { describeError, log } from '../../lib/observability/log.js';
import { optOutNumber } from '../../lib/services/dnc.js';
import { normalizePhone } from '../../lib/domain/phone.js';
import type { Call } from '../../lib/domain/call.js';
import type { SecretBox } from '../../lib/store/secret-box.js';
import type { CallSetup } from './call/types.js';
import type { ClaimedCall, StreamingEnvironment } from './service.js';

/** A chat's summary: the call prompt speaks of a phone call. */
const CHAT_SUMMARY_PROMPT =
  'Summarize this text chat between an AI agent and a website visitor in at most three sentences: what the ' +
  'visitor wanted, and how it ended. Plain text, no preamble.';

/** Builds one call's vendor providers from the agent's provider ids and the workspace's own keys. */
export interface ProviderFactory {
  stt(id: SttProviderId, keys?: WorkspaceProviderKeys): SttProvider;
  /** `custom`: the agent's own endpoint, for `llm_provider: "custom"` (docs/vendors-llm.md). */
  llm(id: LlmProviderId, keys?: WorkspaceProviderKeys, custom?: CustomLlmEndpoint): LlmProvider;
  tts(id: TtsProviderId, keys?: WorkspaceProviderKeys): TtsProvider;
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
  // One retriever for the service: its segment cache serves every call of every workspace (keys are per workspace).
  const retriever = createKnowledgeRetriever({ db, objects: createKnowledgeObjects(deps.config) });
  // One cache of custom ambience files for the process: each is fetched once, whoever calls with it.
  const customBeds = new CustomBeds({ allowedHosts: deps.config.TOOL_ALLOWED_HOSTS });
  /**
   * The workspace's own vendor keys (docs/provider-keys.md). Keys that cannot be read (a table error, or a
   * value sealed with a data-key version this task does not hold yet) must not cost the caller the call: it
   * runs on the platform's keys and is charged the full price, and the log says why (never a key).
   */
  const callProviderKeys = (ws: string): Promise<WorkspaceProviderKeys> =>
    workspaceProviderKeys(db, secrets, ws).catch((error: unknown) => {
      log('warn', 'workspace provider keys unreadable; the call uses the platform keys', { workspaceId: ws, ...describeError(error) });
      return {};
    });
  return {
    // Every version's key: a token signed by a process already on a newer data key still verifies.
    tokenKey: secrets.deriveKeys(STREAM_TOKEN_KEY_PURPOSE),
    loader: {
      agent: async (ws, id, version) => (version === undefined ? getAgent(db, ws, id) : (await getVersion(db, ws, id, version)).agent),
      // A handoff runs its destination's latest published version (a version gone reads as unavailable).
      async destination(ws, id) {
        const record = await findAgent(db, ws, id);
        return record ? agentToRun(db, ws, record).catch(() => undefined) : undefined;
      },
      contactById: (ws, id) => getContact(db, ws, id),
      async contactByPhone(ws, e164) {
        const id = await contactIdByPhone(db, ws, e164);
        return id ? getContact(db, ws, id) : undefined;
      },
      tools: async (ws) => [...(await listTools(db, ws)).data],
      call: (ws, id) => findCall(db, ws, id),
    },
    async streamCall(claims) {
      const call = await findStreamCall(deps, claims);
      return call && claimedCallOf(call);
    },
    async claim(claims, start) {
      const call = await claimCallStream(deps, claims, start.streamSid);
      return call && { maxDurationSeconds: call.maxDurationSeconds };
    },
    heartbeat: (call, streamSid) => heartbeatCallStream(deps, call, streamSid),
    web: {
      key: secrets.deriveKeys(WEB_SESSION_KEY_PURPOSE),
      claim: (claims, streamSid) => claimMeetingCall(deps, claims, streamSid),
    },
    live: {
      controlKey: secrets.deriveKeys(CONTROL_TOKEN_KEY_PURPOSE),
      listenKey: secrets.deriveKeys(LISTEN_TOKEN_KEY_PURPOSE),
      async hold(call, streamSid, host) {
        await recordStreamHost(db, call.workspaceId, call.callId, streamSid, host);
      },
      holder: async (call) => (await findCall(db, call.workspaceId, call.callId))?.streamHost,
    },
    chat: {
      claim: (claims) => claimChat(deps, claims),
      charge: (chat, n) => chargeChatMessage(deps, chat, n),
      async finalize(outcome, services) {
        const { setup } = outcome;
        const summary = await summarize(services.llm, setup.agent.llm_model, outcome.transcript, setup.agent.analysis?.summaryPrompt ?? CHAT_SUMMARY_PROMPT);
        const chat = {
          workspaceId: setup.workspaceId,
          chatId: setup.callId,
          reason: outcome.reason,
          durationSeconds: Math.ceil((outcome.endedAt - setup.startedAt) / 1000),
          messagesCharged: outcome.messagesCharged,
          transcript: outcome.transcript,
          summary,
          knowledge: outcome.knowledge,
          segments: outcome.segments,
        };
        return recordChat(deps, chat, { llm: services.llm, agent: setup.agent });
      },
    },
    async services(setup, numberId) {
      const { agent } = setup;
      // Read once, at the call's start: a key set or deleted mid-call applies from the next call.
      const keys = await callProviderKeys(setup.workspaceId);
      const callee = normalizePhone(setup.callerNumber)?.e164;
      let account: Promise<TelephonyAccount | undefined> | undefined;
      const number = (id: string) => getPhoneNumberWithToken(db, secrets, setup.workspaceId, id);
      const resolveAccount = async (id: string): Promise<TelephonyAccount | undefined> => {
        const { number: n, authToken } = await number(id);
        if (authToken) return { accountSid: n.telephonyAccountSid, authToken };
        return deps.telephony.platformAccount();
      };
      const bed = ambienceOf(agent);
      return {
        ...(bed && { ambience: ambienceSource(bed, customBeds) }),
        stt: providers.stt(agent.stt_provider, keys),
        llm: providers.llm(agent.llm_provider, keys, customEndpoint(setup, secrets, deps.config.TOOL_ALLOWED_HOSTS)),
        tts: providers.tts(agent.tts_provider, keys),
        ttsFallbacks: (agent.fallback?.tts ?? []).map((f) => ({ provider: providers.tts(f.provider, keys), voiceId: f.voice_id ?? DEFAULT_VOICE[f.provider] })),
        sttFallbacks: (agent.fallback?.stt ?? []).map((f) => providers.stt(f.provider, keys)),
        llmFallbacks: (agent.fallback?.llm ?? []).map((f) => ({ provider: providers.llm(f.provider, keys), model: f.model })),
        billing: { onWorkspaceKeys: capabilitiesOnWorkspaceKeys(agent, keys), realtimeOnWorkspaceKey: realtimeOnWorkspaceKey(agent, keys) },
        ...(agent.realtime && { realtime: (agent.realtime.provider === 'google' ? geminiLiveEndpoint : realtimeEndpoint)(configWithWorkspaceKeys(deps.config, keys)) }),
        knownSecrets: vendorKeysOfCall(deps.config, keys),
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
        // A tool's `{{variables}}` are the call's, filled before the model's `{param}` arguments.
        loadTool: async (id) => {
          const tool = await getTool(db, secrets, setup.workspaceId, id);
          return setup.variables ? fillTool(tool, setup.variables) : tool;
        },
        // Only a phone call has a number to keep off the list.
        ...(numberId && callee && { optOut: () => optOutNumber(db, setup.workspaceId, callee, setup.callId) }),
        httpTools: { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS },
        ...(agent.knowledge_base_ids?.length && { knowledge: knowledgeAccess(retriever, setup, createEmbeddings(deps.config, keys)) }),
        onHandoff: (data) => void announce(deps, setup.workspaceId, 'call.handoff', data),
        onTransfer: (to) => void announce(deps, setup.workspaceId, 'call.transfer', { callId: setup.callId, agentId: agent._id, to, at: new Date().toISOString(), ...(setup.metadata ? { metadata: setup.metadata } : {}) }),
      };
    },
    async finalize(outcome, services) {
      // The container reports what it measured; the call's owner settles, completes and records it,
      // announces call.ended and runs the analysis (docs/calls.md, "Who settles, who writes history").
      const measured = await measureCall(outcome, services.billing ?? { onWorkspaceKeys: [] }, {
        llm: services.llm,
        putRecording: (ws, callId, wav) => recordings.put(recordingKey(ws, callId), wav, 'audio/wav'),
      });
      return endConnectedCall(deps, measured, { llm: services.llm, agent: outcome.setup.agent });
    },
  };
}

/**
 * A custom model's endpoint for this call: the agent's base URL (checked again at every request), its key
 * opened, and the call's context sent as headers. A key that cannot be opened leaves the endpoint out, so
 * the turn fails as an unconfigured vendor does (to the fallback models), and the log names no key.
 */
function customEndpoint(setup: CallSetup, secrets: SecretBox, allowedHosts: readonly string[]): CustomLlmEndpoint | undefined {
  const { agent } = setup;
  if (agent.llm_provider !== 'custom' || !agent.llm_base_url) return undefined;
  let apiKey: string | undefined;
  try {
    apiKey = agent.llm_api_key ? secrets.open(agent.llm_api_key, setup.workspaceId) : undefined;
  } catch (error) {
    log('warn', 'the custom model key is unreadable; the turn goes to the fallback models', { workspaceId: setup.workspaceId, agentId: agent._id, ...describeError(error) });
    return undefined;
  }
  return {
    baseUrl: agent.llm_base_url,
    ...(apiKey !== undefined && { apiKey }),
    context: { callId: setup.callId, agentId: agent._id, ...(setup.variables && { variables: setup.variables }), ...(setup.metadata && { metadata: setup.metadata }) },
    allowedHosts,
  };
}

/**
 * The agent's knowledge bases for one call, searched in the call's own workspace only (the retriever reads
 * `WS#<ws>` keys and `workspaces/<ws>/` objects). A base deleted since the agent was saved is skipped.
 */
function knowledgeAccess(retriever: KnowledgeRetriever, setup: CallSetup, embeddings: EmbeddingsProvider): KnowledgeAccess {
  const ids = setup.agent.knowledge_base_ids ?? [];
  return {
    mode: setup.agent.knowledge_base_mode ?? 'auto',
    // A base deleted since the agent was saved is skipped; the others still answer.
    search: (query, k) => retriever.search(setup.workspaceId, ids, query, k, embeddings, { skipMissing: true }),
  };
}

/** What a session needs to know of its phone call: its agent, contact, other party and our number. */
function claimedCallOf(call: Call): ClaimedCall {
  return {
    callId: call._id,
    workspaceId: call.workspaceId,
    agentId: call.agentId,
    ...(call.contactId ? { contactId: call.contactId } : {}),
    // The other party: the contact is looked up by it when the call names none.
    ...(call.to ? { from: call.to } : {}),
    ...(call.phoneNumberId ? { numberId: call.phoneNumberId } : {}),
  };
}
