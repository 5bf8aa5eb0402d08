import { useEffect, useRef, useState } from 'react';
import type { Schemas } from '../api.js';
import { AMBIENCE_SOUNDS, isShippedSound as isShipped, type AmbienceSound } from '../../../../domain/ambience-sounds.js';
import { BED_RATE, shippedBed } from '../../../../media/ambience-beds.js';
import { Button, Select, TextField } from '../ui.js';

/*
 * The agent form's sound settings: the ambience bed under its calls, with a preview made in the page from the
 * same synthesis the calls use (lib/media/ambience-beds.ts), and its pronunciation dictionary.
 */

export type Ambience = { sound: string; volume: number };
export type Pronunciation = NonNullable<Schemas['Agent']['pronunciations']>[number];

const SOUND_NAMES: Record<AmbienceSound, string> = {
  office: 'Office',
  call_center: 'Call center',
  cafe: 'Café',
  street: 'Street',
  static: 'Phone line static',
};
const CUSTOM = 'custom';
const SOUND_OPTIONS = [...AMBIENCE_SOUNDS.map((s) => [s, SOUND_NAMES[s]] as const), [CUSTOM, 'My own WAV file (URL)'] as const];
/** Seconds a preview plays. */
const PREVIEW_SECONDS = 4;

/** Plays the shipped bed at `volume` for a few seconds through Web Audio (no media request: the CSP allows none). */
function usePreview() {
  const playing = useRef<{ ctx: AudioContext; stop: () => void } | undefined>(undefined);
  const [on, setOn] = useState(false);
  const stop = () => {
    playing.current?.stop();
    playing.current = undefined;
    setOn(false);
  };
  useEffect(() => stop, []);
  const play = (sound: AmbienceSound, volume: number) => {
    stop();
    const ctx = new AudioContext();
    const bed = shippedBed(sound, BED_RATE);
    const buffer = ctx.createBuffer(1, bed.length, BED_RATE);
    const channel = buffer.getChannelData(0);
    for (let i = 0; i < bed.length; i += 1) channel[i] = bed[i]! / 32_768;
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.loop = true;
    const gain = ctx.createGain();
    gain.gain.value = volume;
    source.connect(gain).connect(ctx.destination);
    source.start();
    const timer = setTimeout(stop, PREVIEW_SECONDS * 1_000);
    playing.current = {
      ctx,
      stop: () => {
        clearTimeout(timer);
        source.stop();
        void ctx.close();
      },
    };
    setOn(true);
  };
  return { on, play, stop };
}

export function AmbienceFields({ enabled, value, onEnabled, onChange }: { enabled: boolean; value: Ambience; onEnabled: (on: boolean) => void; onChange: (a: Ambience) => void }) {
  const preview = usePreview();
  const choice = isShipped(value.sound) ? value.sound : CUSTOM;
  return (
    <fieldset className="ambience" aria-describedby="ambience-hint">
      <legend>Background ambience</legend>
      <p id="ambience-hint" className="hint">
        A quiet room under the whole call, beneath the voice and in the pauses. Callers hear it; the agent never mistakes it for the caller.
      </p>
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => onEnabled(e.target.checked)} />
        Play background ambience
      </label>
      {enabled ? (
        <div className="grid-2">
          <Select
            label="Sound"
            options={SOUND_OPTIONS}
            value={choice}
            onChange={(e) => onChange({ ...value, sound: e.target.value === CUSTOM ? (isShipped(value.sound) ? '' : value.sound) : e.target.value })}
          />
          <TextField
            label={`Volume (${Math.round(value.volume * 100)}%)`}
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={value.volume}
            onChange={(e) => onChange({ ...value, volume: Number(e.target.value) })}
          />
          {choice === CUSTOM ? (
            <TextField
              label="WAV file URL"
              type="url"
              required
              maxLength={2000}
              placeholder="https://cdn.example.com/lobby.wav"
              hint="https; 16-bit PCM WAV, mono or stereo, 8-48 kHz, at most 2 MB. Fetched once when a call first plays it."
              value={value.sound}
              onChange={(e) => onChange({ ...value, sound: e.target.value })}
            />
          ) : (
            <div className="preview">
              <Button onClick={() => (preview.on ? preview.stop() : preview.play(value.sound as AmbienceSound, value.volume))} aria-pressed={preview.on}>
                {preview.on ? 'Stop preview' : 'Play preview'}
              </Button>
            </div>
          )}
        </div>
      ) : null}
    </fieldset>
  );
}

const blank = (): Pronunciation => ({ word: '', say_as: '' });

/** The pronunciation dictionary, one row per word: said as other words, or as IPA / ARPAbet phonemes. */
export function PronunciationsEditor({ value, provider, onChange }: { value: readonly Pronunciation[]; provider: string; onChange: (list: Pronunciation[]) => void }) {
  const put = (i: number, entry: Pronunciation) => onChange(value.map((e, j) => (j === i ? entry : e)));
  return (
    <fieldset className="pronunciations" aria-describedby="pron-hint">
      <legend>Pronunciations</legend>
      <p id="pron-hint" className="hint">
        Brand, drug or street names the voice gets wrong. Only the voice changes: transcripts keep the written word. Phonemes work with ElevenLabs (IPA or ARPAbet) and Cartesia (IPA);
        {provider === 'deepgram' ? ' this agent’s voice (Deepgram) takes “say as” only.' : ' other voices take “say as”.'}
      </p>
      {value.length === 0 ? <p className="hint">No pronunciations yet.</p> : null}
      <ol className="pron-list">
        {value.map((entry, i) => {
          const n = i + 1;
          return (
            <li key={i} className="pron-row">
              <TextField label={`Word ${n}`} required maxLength={60} value={entry.word} onChange={(e) => put(i, { ...entry, word: e.target.value })} />
              <Select
                label={`How word ${n} is given`}
                options={[
                  ['say_as', 'Say as'],
                  ['ipa', 'IPA'],
                  ['cmu-arpabet', 'ARPAbet'],
                ]}
                value={'phoneme' in entry ? (entry.alphabet ?? 'ipa') : 'say_as'}
                onChange={(e) =>
                  put(i, e.target.value === 'say_as' ? { word: entry.word, say_as: 'say_as' in entry ? entry.say_as : '' } : { word: entry.word, phoneme: 'phoneme' in entry ? entry.phoneme : '', alphabet: e.target.value as 'ipa' | 'cmu-arpabet' })
                }
              />
              {'phoneme' in entry ? (
                <TextField label={`Phonemes for word ${n}`} required maxLength={100} placeholder={entry.alphabet === 'cmu-arpabet' ? 'T AE1 L AH0 N' : 'ˈtælən'} value={entry.phoneme} onChange={(e) => put(i, { ...entry, phoneme: e.target.value })} />
              ) : (
                <TextField label={`Say word ${n} as`} required maxLength={120} value={entry.say_as} onChange={(e) => put(i, { ...entry, say_as: e.target.value })} />
              )}
              <Button onClick={() => onChange(value.filter((_, j) => j !== i))} aria-label={`Remove word ${n}`}>
                Remove
              </Button>
            </li>
          );
        })}
      </ol>
      <Button onClick={() => onChange([...value, blank()])} disabled={value.length >= 100}>
        Add a word
      </Button>
    </fieldset>
  );
}
