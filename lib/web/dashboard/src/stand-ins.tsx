import { useQuery } from '@tanstack/react-query';
import { call } from './session.js';
import { Notice } from './ui.js';

const VENDORS: Record<string, string> = {
  deepgram: 'Deepgram', assemblyai: 'AssemblyAI', speechmatics: 'Speechmatics', openai: 'OpenAI', anthropic: 'Anthropic', google: 'Google',
  elevenlabs: 'ElevenLabs', cartesia: 'Cartesia', twilio: 'Twilio',
};
const NAMES: Record<string, string> = { stt: 'speech recognition', llm: 'the language model', tts: 'the voice', telephony: 'telephony' };

/**
 * Says which vendors are simulated and the step that makes them real; nothing on real vendors. With
 * `agentId`, that agent's vendors and key variables (the talk panel); without, every simulated
 * capability in one short line (History and a call's page, whose records come from those vendors).
 */
export function StandInsNotice({ agentId }: { agentId?: string }) {
  // The talk panel starts a browser call: no telephony in it.
  const params = agentId ? { agentId, channel: 'web' as const } : {};
  const view = useQuery({ queryKey: ['stand-ins', agentId ?? ''], queryFn: () => call((c) => c.GET('/api/stand-ins', { params: { query: params } })), staleTime: 5 * 60_000 });
  const notice = view.data?.notice;
  if (!notice) return null;
  if (agentId) {
    // The panel is a narrow column: the vendors and the variables, not the server's whole paragraph.
    const vendors = [...new Set(notice.parts.map((p) => VENDORS[p.vendor] ?? p.vendor))];
    const variables = [...new Set(notice.parts.map((p) => p.keyVariable))];
    return (
      <Notice kind="warning">
        Simulated: this agent runs on local stand-ins ({vendors.join(', ')}), so it does not hear what you say and its voice is a tone. To make them
        real, set {variables.join(', ')} where the platform runs and restart it.
      </Notice>
    );
  }
  const capabilities = [...new Set(notice.parts.map((p) => NAMES[p.capability] ?? p.capability))];
  const named = capabilities.length > 1 ? `${capabilities.slice(0, -1).join(', ')} and ${capabilities.at(-1)}` : capabilities[0];
  return (
    <Notice kind="warning">
      Simulated: calls here run on local stand-ins for {named}. Their transcripts are scripted lines, not what was said. To make a vendor real, set
      its key (for example {notice.parts[0]!.keyVariable}) where the platform runs and restart it (docs/provider-keys.md).
    </Notice>
  );
}
