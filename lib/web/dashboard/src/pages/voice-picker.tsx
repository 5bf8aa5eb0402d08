import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '../api.js';
import { VOICES } from '../catalog.js';
import { auraVoiceLanguage, MULTI, primarySubtag } from '../../../../domain/language-support.js';
import { call } from '../session.js';
import { TextField } from '../ui.js';

type Voice = Schemas['Voice'];

/** Past this many voices the picker shows only that many and a filter: a grid of sixty cards is not a choice. */
const SHOWN_AT_ONCE = 6;

const describe = (v: Voice) => [v.language, v.gender].filter(Boolean).join(' · ') || 'No details from the vendor';

/**
 * The agent's voice: the vendor's own list for this workspace (`GET /api/voices?provider=`, the same list the
 * save is checked against), or, when it cannot be read, the common voices the dashboard knows. A voice the
 * agent has that is in neither stays selectable as "Custom voice".
 */
export function VoicePicker({ provider, language, value, onChange }: { provider: string; language?: string; value: string; onChange: (id: string) => void }) {
  const [filter, setFilter] = useState('');
  const listed = useQuery({
    queryKey: ['voices', provider],
    queryFn: () => call((c) => c.GET('/api/voices', { params: { query: { provider: provider as Schemas['Voices']['provider'] } } })),
    retry: false,
    staleTime: 5 * 60_000,
  });
  const fromVendor = listed.data?.data;
  // A Deepgram Aura-2 voice speaks one language: only the agent's are offered (the agent's own always is).
  const speaks = (id: string) => provider !== 'deepgram' || !language || language === MULTI || auraVoiceLanguage(id) === primarySubtag(language);
  const voices: { id: string; name: string; description: string; previewUrl: string | null }[] = (
    fromVendor
      ? fromVendor.map((v) => ({ id: v.id, name: v.name, description: describe(v), previewUrl: v.previewUrl }))
      : (VOICES[provider] ?? []).map((v) => ({ ...v, previewUrl: null }))
  ).filter((v) => v.id === value || speaks(v.id));
  const wanted = filter.trim().toLowerCase();
  const matching = wanted ? voices.filter((v) => v.id === value || `${v.name} ${v.id} ${v.description}`.toLowerCase().includes(wanted)) : voices;
  // The agent's own voice is always shown, wherever it is in the list.
  const first = matching.slice(0, SHOWN_AT_ONCE);
  const shown = first.some((v) => v.id === value) ? first : [...first, ...matching.filter((v) => v.id === value)];
  const custom = value && !voices.some((v) => v.id === value);
  return (
    <fieldset className="voices">
      <legend>Voice</legend>
      {!voices.some((v) => speaks(v.id)) && !listed.isPending ? <p className="hint">None of this provider’s voices here speaks the chosen language.</p> : null}
      {listed.isPending ? <p className="hint">Reading the vendor’s voices…</p> : null}
      {listed.isError ? <p className="hint">The vendor’s voice list could not be read; these are common voices. The voice is checked again when you save.</p> : null}
      {fromVendor && voices.length <= SHOWN_AT_ONCE ? <p className="hint">{voices.length} voices this workspace can use at {provider}.</p> : null}
      {voices.length > SHOWN_AT_ONCE ? (
        <TextField
          label="Find a voice"
          hint={`${fromVendor ? `${voices.length} voices this workspace can use at ${provider}${voices.length < fromVendor.length ? " in this language" : ""}` : `${voices.length} common voices`}${matching.length > shown.length ? `; showing ${shown.length}: type to find the others` : ''}.`}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="Name, language or id"
        />
      ) : null}
      <div className="voice-grid" data-testid="voice-grid">
        {shown.map((v) => (
          <label key={v.id} className={`voice${v.id === value ? ' selected' : ''}`}>
            <input type="radio" name="voice" value={v.id} checked={v.id === value} onChange={() => onChange(v.id)} />
            <span className="voice-name">{v.name}</span>
            <span className="voice-desc">{v.description}</span>
            {v.previewUrl ? (
              <a className="voice-preview" href={v.previewUrl} target="_blank" rel="noreferrer">
                Listen<span className="visually-hidden"> to {v.name}</span>
              </a>
            ) : null}
          </label>
        ))}
        {custom ? (
          <label className="voice selected">
            <input type="radio" name="voice" value={value} checked readOnly />
            <span className="voice-name">Custom voice</span>
            <span className="voice-desc">
              <code>{value}</code>
              {fromVendor ? ' · not in the vendor’s list: calls with it fail' : null}
            </span>
          </label>
        ) : null}
      </div>
    </fieldset>
  );
}
