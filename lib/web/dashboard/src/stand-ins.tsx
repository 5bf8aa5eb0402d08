import { useQuery } from '@tanstack/react-query';
import { query } from './api.js';
import { api } from './session.js';
import { Notice } from './ui.js';

/** `GET /api/stand-ins` (docs/provider-keys.md, "Simulated vendors"). */
interface StandInsView {
  readonly simulated: boolean;
  readonly notice?: { readonly parts: readonly { capability: string; vendor: string; keyVariable: string }[]; readonly message: string };
}

const NAMES: Record<string, string> = { stt: 'speech recognition', llm: 'language model', tts: 'voice', telephony: 'telephony' };

/**
 * Says which vendors are simulated and the step that makes them real; nothing on real vendors. With
 * `agentId`, that agent's vendors in the server's words (the talk panel); without, every simulated
 * capability in one short line (History and a call's page, whose records come from those vendors).
 */
export function StandInsNotice({ agentId }: { agentId?: string }) {
  // The talk panel starts a browser call: no telephony in it.
  const params = agentId ? { agentId, channel: 'web' } : {};
  const view = useQuery({ queryKey: ['stand-ins', agentId ?? ''], queryFn: () => api<StandInsView>('GET', `/api/stand-ins${query(params)}`), staleTime: 5 * 60_000 });
  const notice = view.data?.notice;
  if (!notice) return null;
  if (agentId) {
    return (
      <Notice kind="warning">{notice.message}</Notice>
    );
  }
  const capabilities = [...new Set(notice.parts.map((p) => NAMES[p.capability] ?? p.capability))];
  const variables = [...new Set(notice.parts.map((p) => (p.keyVariable === 'TWILIO_ACCOUNT_SID' ? 'TWILIO_ACCOUNT_SID + TWILIO_AUTH_TOKEN' : p.keyVariable)))];
  return (
    <Notice kind="warning">
      Simulated: calls here run on local stand-ins for {capabilities.join(', ')}. Transcripts are scripted lines, not what was said, and the
      agent&rsquo;s voice is a tone. To make a vendor real, set its key ({variables.join(', ')}) where the platform runs and restart it.
    </Notice>
  );
}
