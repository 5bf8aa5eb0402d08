/**
 * Charts drawn in SVG by hand: two small ones do not justify a charting library. Each has a text
 * alternative (a table or a list) next to it for screen readers; the SVG itself is a labelled image.
 */

export interface TurnLatency {
  readonly sttMs: number | null;
  readonly llmFirstTokenMs: number | null;
  readonly llmFirstPhraseMs: number | null;
  readonly ttsFirstByteMs: number | null;
  readonly overheadMs: number | null;
}

/** The stages of a turn in the order they happen, from the caller's last word to the agent's first sound. */
export const STAGES = [
  { key: 'sttMs', label: 'Speech recognition', className: 'stage-stt' },
  { key: 'llmFirstTokenMs', label: 'LLM first token', className: 'stage-llm' },
  { key: 'llmFirstPhraseMs', label: 'LLM first phrase', className: 'stage-phrase' },
  { key: 'ttsFirstByteMs', label: 'TTS first byte', className: 'stage-tts' },
  { key: 'overheadMs', label: 'Platform overhead', className: 'stage-ours' },
] as const;

const ms = (n: number) => `${Math.round(n)} ms`;

/** Round axis steps (1, 2 or 5 times a power of ten), about `count` of them, from 0 to at least `max`. */
export function niceTicks(max: number, count = 4): number[] {
  const raw = Math.max(max, 1e-9) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw)!;
  // Multiples rounded to 12 digits, so 3 × 0.1 is 0.3.
  const ticks = [0];
  while (ticks.length < 2 || ticks.at(-1)! < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

/** One row per turn; the stages as consecutive bars on a shared time axis. */
export function LatencyWaterfall({ turns }: { turns: readonly TurnLatency[] }) {
  const totals = turns.map((t) => STAGES.reduce((sum, s) => sum + (t[s.key] ?? 0), 0));
  const ticks = niceTicks(Math.max(1, ...totals));
  const max = ticks.at(-1)!;
  const rowHeight = 26;
  const labelWidth = 70;
  const width = 640;
  const plot = width - labelWidth - 70;
  const height = turns.length * rowHeight + 24;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Latency per turn, ${turns.length} turns; the table below has the figures`}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={labelWidth + (t / max) * plot} x2={labelWidth + (t / max) * plot} y1={0} y2={height - 18} className="grid-line" />
            <text x={labelWidth + (t / max) * plot} y={height - 4} className="axis-label" textAnchor="middle">
              {ms(t)}
            </text>
          </g>
        ))}
        {turns.map((turn, i) => {
          let x = labelWidth;
          const y = i * rowHeight + 4;
          return (
            <g key={i}>
              <text x={labelWidth - 8} y={y + 13} className="axis-label" textAnchor="end">
                Turn {i + 1}
              </text>
              {STAGES.map((s) => {
                const value = turn[s.key] ?? 0;
                const w = (Math.max(0, value) / max) * plot;
                const rect = <rect key={s.key} x={x} y={y} width={w} height={18} className={s.className} />;
                x += w;
                return rect;
              })}
              <text x={x + 6} y={y + 13} className="axis-label">
                {ms(totals[i]!)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="legend">
        {STAGES.map((s) => (
          <span key={s.key}>
            <span className={`swatch ${s.className}`} aria-hidden="true" /> {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

export interface UsageDay {
  readonly day: string;
  readonly credits: number;
  readonly calls: number;
}

/** Credits used per day as columns, with the busiest day's value as the scale. */
export function UsageChart({ days }: { days: readonly UsageDay[] }) {
  const ticks = niceTicks(Math.max(...days.map((d) => d.credits)), 3);
  const max = ticks.at(-1)!;
  const width = 720;
  const height = 220;
  const left = 44;
  const bottom = 28;
  const plotH = height - bottom - 10;
  const step = (width - left) / Math.max(1, days.length);
  const bar = Math.max(2, step * 0.7);
  const short = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Credits used per day over the last ${days.length} days; the table below has the figures`}>
        {ticks.map((t) => {
          const y = 10 + plotH - (t / max) * plotH;
          return (
            <g key={t}>
              <line x1={left} x2={width} y1={y} y2={y} className="grid-line" />
              <text x={left - 6} y={y + 4} className="axis-label" textAnchor="end">
                {Number(t.toPrecision(3))}
              </text>
            </g>
          );
        })}
        {days.map((d, i) => {
          const h = (d.credits / max) * plotH;
          const x = left + i * step + (step - bar) / 2;
          return (
            <g key={d.day}>
              <rect x={x} y={10 + plotH - h} width={bar} height={h} className="usage-bar">
                <title>{`${d.day}: ${d.credits} credits, ${d.calls} calls`}</title>
              </rect>
              {i % Math.ceil(days.length / 6) === 0 ? (
                <text x={x + bar / 2} y={height - 8} className="axis-label" textAnchor="middle">
                  {short.format(new Date(`${d.day}T00:00:00Z`))}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
