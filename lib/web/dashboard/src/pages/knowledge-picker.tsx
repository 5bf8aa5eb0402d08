import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { call } from '../session.js';
import { QueryView, Select } from '../ui.js';

/** The agent form's knowledge bases (docs/knowledge.md, "In a conversation"): which it answers from, and how. */

export type KnowledgeMode = 'auto' | 'tool';

const MODES = [
  ['auto', 'Look up every caller turn before answering'],
  ['tool', 'Let the model search when it decides to'],
] as const satisfies readonly (readonly [KnowledgeMode, string])[];

export function KnowledgePicker({ value, mode, onChange, onMode }: { value: readonly string[]; mode: KnowledgeMode; onChange: (ids: string[]) => void; onMode: (mode: KnowledgeMode) => void }) {
  const bases = useQuery({ queryKey: ['knowledge-bases'], queryFn: () => call((c) => c.GET('/api/knowledge-bases')) });
  const chosen = new Set(value);
  const all = bases.data?.data ?? [];
  const pick = (id: string, on: boolean) => onChange(all.filter((b) => (b._id === id ? on : chosen.has(b._id))).map((b) => b._id));
  return (
    <fieldset className="knowledge-picker">
      <legend>Knowledge bases</legend>
      <QueryView query={bases} what="the knowledge bases">
        {() =>
          all.length === 0 ? (
            <p className="hint">
              No knowledge base yet. <Link to="/knowledge">Create one</Link> to let the agent answer from your documents.
            </p>
          ) : (
            <ul className="tool-choices">
              {all.map((b) => (
                <li key={b._id}>
                  <label className="check">
                    <input type="checkbox" checked={chosen.has(b._id)} onChange={(e) => pick(b._id, e.target.checked)} />
                    {b.name}
                  </label>
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
      {value.length > 0 ? <Select label="How the agent uses them" options={MODES} value={mode} onChange={(e) => onMode(e.target.value as KnowledgeMode)} /> : null}
    </fieldset>
  );
}
