import type { Schemas } from '../api.js';

type CallerWait = Schemas['CallerWait'];
type LatencySummary = Schemas['LatencySummary'];

/**
 * What the caller waited for each answer (the record's `turnLatencies[].callerWait`, docs/voice-pipeline.md,
 * "The caller's wait"): a row per turn with its total, a bar of its parts on a scale shared by the call's
 * turns, and the parts in words, so the figures are read as text at any width and the bar only shows the
 * proportions (hidden from screen readers, which get the same figures in the list).
 */
export const WAIT_PARTS = [
  { key: 'endOfTurnMs', label: 'End of turn', className: 'stage-stt' },
  { key: 'llmFirstTokenMs', label: 'LLM first token', className: 'stage-llm' },
  { key: 'llmFirstPhraseMs', label: 'LLM first phrase', className: 'stage-phrase' },
  { key: 'ttsFirstByteMs', label: 'TTS first byte', className: 'stage-tts' },
  { key: 'otherMs', label: 'Other', className: 'stage-ours' },
] as const;

const ms = (n: number) => `${n.toLocaleString('en-US')} ms`;

/** The bar's length in viewBox units: the longest wait of the call fills it. */
const BAR = 1000;

function WaitBar({ wait, longest }: { wait: CallerWait; longest: number }) {
  let x = 0;
  return (
    <svg className="wait-bar" viewBox={`0 0 ${BAR} 10`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <rect x={0} y={0} width={BAR} height={10} className="wait-track" />
      {WAIT_PARTS.map((p) => {
        const value = wait[p.key] ?? 0;
        const w = (value / longest) * BAR;
        const rect = <rect key={p.key} x={x} y={0} width={w} height={10} className={p.className} />;
        x += w;
        return rect;
      })}
    </svg>
  );
}

/** The call's waits in three figures, when the record has its summary and a turn was answered. */
function Summary({ summary }: { summary: LatencySummary }) {
  if (summary.measuredTurns === 0 || summary.callerWaitP50Ms === null) return null;
  return (
    <dl className="wait-summary" data-testid="wait-summary">
      <div>
        <dt>Typical wait</dt>
        <dd>{ms(summary.callerWaitP50Ms)}</dd>
      </div>
      <div>
        <dt>9 in 10 turns within</dt>
        <dd>{ms(summary.callerWaitP90Ms ?? summary.callerWaitP50Ms)}</dd>
      </div>
      <div>
        <dt>Longest</dt>
        <dd>{ms(summary.callerWaitMaxMs ?? summary.callerWaitP50Ms)}</dd>
      </div>
      <div>
        <dt>Turns timed</dt>
        <dd>
          {summary.measuredTurns} of {summary.turns}
        </dd>
      </div>
    </dl>
  );
}

/** One row per caller turn: what the caller waited and its parts, or why there is nothing to time. */
export function CallerWaits({ waits, summary }: { waits: readonly (CallerWait | null)[]; summary?: LatencySummary }) {
  const longest = Math.max(1, ...waits.map((w) => w?.totalMs ?? 0));
  return (
    <>
      {summary ? <Summary summary={summary} /> : null}
      <p className="hint">What the caller waited for each answer: from the end of their speech to the agent’s first sound, by stage. “Other” is the platform’s own time and any tool the model ran first.</p>
      <ol className="waits" aria-label="The caller’s wait per turn">
        {waits.map((wait, i) => (
          <li key={i} className="wait" data-testid="caller-wait">
            <div className="wait-head">
              <span>Turn {i + 1}</span>
              {wait ? <span className="wait-total">waited {ms(wait.totalMs)}</span> : <span className="wait-none">not timed</span>}
            </div>
            {wait ? (
              <>
                <WaitBar wait={wait} longest={longest} />
                <ul className="wait-parts" aria-label={`Turn ${i + 1}: the parts of the wait`}>
                  {WAIT_PARTS.flatMap((p) =>
                    wait[p.key] === null ? [] : [
                      <li key={p.key}>
                        <span className={`swatch ${p.className}`} aria-hidden="true" />
                        {p.label} <span className="wait-part-ms">{ms(wait[p.key]!)}</span>
                      </li>,
                    ],
                  )}
                </ul>
              </>
            ) : (
              <p className="wait-note">The agent had not spoken when the caller went on, so there is no answer to time.</p>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}
