import { MULTI, providersFor, STT_LANGUAGES, supports, TTS_LANGUAGES } from '../../../../domain/language-support.js';
import { LANGUAGES, STT_PROVIDERS, TTS_PROVIDERS, withCurrent, type SttProvider, type TtsProvider } from '../catalog.js';
import { Select } from '../ui.js';

const names = (options: readonly (readonly [string, string])[], ids: readonly string[]) =>
  ids.map((id) => options.find(([v]) => v === id)?.[1] ?? id).join(', ') || 'none';

/**
 * The agent's language (docs/api.md, "language"), with which speech-recognition and voice providers take
 * it, from the same tables the API checks a save against (lib/domain/language-support.ts). A chosen
 * provider that does not is named at once, before the save is refused.
 */
export function LanguagePicker({ value, stt, tts, onChange }: { value: string; stt: SttProvider; tts: TtsProvider; onChange: (language: string) => void }) {
  const heard = providersFor(STT_LANGUAGES, value);
  const spoken = providersFor(TTS_LANGUAGES, value);
  const sttMissing = !supports(STT_LANGUAGES[stt], value);
  const ttsMissing = !supports(TTS_LANGUAGES[tts], value);
  const what = value === MULTI ? 'automatic detection' : 'this language';
  return (
    <div className="language-picker">
      <Select
        label="Language"
        value={value}
        options={withCurrent(LANGUAGES, value)}
        onChange={(e) => onChange(e.target.value)}
        hint={value === MULTI ? 'The recognizer detects the caller’s language each turn; the agent answers, and its voice speaks, in it.' : 'The recognizer listens for it, the voice speaks it, and the model is told to answer in it.'}
      />
      <dl className="language-support" aria-label="Providers for this language">
        <dt>Speech recognition</dt>
        <dd>{names(STT_PROVIDERS, heard)}</dd>
        <dt>Voice</dt>
        <dd>{names(TTS_PROVIDERS, spoken)}</dd>
      </dl>
      {sttMissing || ttsMissing ? (
        <p className="field-error" role="alert">
          {[sttMissing ? `${names(STT_PROVIDERS, [stt])} does not support ${what}` : '', ttsMissing ? `${names(TTS_PROVIDERS, [tts])} does not support ${what}` : ''].filter(Boolean).join('; ')}
          . Pick a provider listed above.
        </p>
      ) : null}
    </div>
  );
}
