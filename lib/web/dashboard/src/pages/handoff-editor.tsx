import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '../api.js';
import { call } from '../session.js';
import { Button, QueryView, Select } from '../ui.js';

/**
 * The agent form's handoffs (docs/handoffs.md): the other agents of the workspace this one may hand the
 * conversation to, each with when (its description), what context travels and the values to gather first.
 */

export type Handoff = NonNullable<Schemas['Agent']['handoffs']>[number];
type Variable = Handoff['variables'][number];

const CONTEXTS = [
  ['full', 'The whole conversation'],
  ['summary', 'A summary the model writes'],
  ['none', 'Nothing: a fresh start'],
] as const satisfies readonly (readonly [Handoff['context'], string])[];

const TYPES = [
  ['string', 'Text'],
  ['number', 'Number'],
  ['boolean', 'Yes or no'],
] as const satisfies readonly (readonly [Variable['type'], string])[];

export function HandoffEditor({ self, value, onChange }: { self?: string; value: readonly Handoff[]; onChange: (list: Handoff[]) => void }) {
  const agents = useQuery({ queryKey: ['agents', 'handoff-destinations'], queryFn: () => call((c) => c.GET('/api/agents', { params: { query: { page: 1, limit: 100 } } })) });
  const others = (agents.data?.data ?? []).filter((a) => a._id !== self);
  const chosen = new Map(value.map((h) => [h.agent_id, h]));
  const name = (id: string) => others.find((a) => a._id === id)?.name ?? `${id} (deleted)`;
  const replace = (id: string, next: Handoff | undefined) => onChange(next ? value.map((h) => (h.agent_id === id ? next : h)) : value.filter((h) => h.agent_id !== id));
  const add = (id: string) => onChange([...value, { agent_id: id, description: '', context: 'full', variables: [] }]);
  return (
    <fieldset className="handoff-editor">
      <legend>Handoffs</legend>
      <p className="hint">Agents this one can pass the conversation to in the same call or chat, with their voice, prompt and tools.</p>
      <QueryView query={agents} what="the agents">
        {() => (
          <>
            {value.length > 0 ? (
              <ul className="handoff-list">
                {value.map((h) => (
                  <li key={h.agent_id} className="card">
                    <strong>{name(h.agent_id)}</strong>
                    <label>
                      When to hand over
                      <textarea aria-label={`When to hand over to ${name(h.agent_id)}`} value={h.description} placeholder="the caller wants to book a visit" onChange={(e) => replace(h.agent_id, { ...h, description: e.target.value })} />
                    </label>
                    <Select label="What travels" options={CONTEXTS} value={h.context} onChange={(e) => replace(h.agent_id, { ...h, context: e.target.value as Handoff['context'] })} />
                    <VariablesEditor value={h.variables} onChange={(variables) => replace(h.agent_id, { ...h, variables })} />
                    <Button onClick={() => replace(h.agent_id, undefined)}>Remove</Button>
                  </li>
                ))}
              </ul>
            ) : null}
            {others.some((a) => !chosen.has(a._id)) ? (
              <label>
                Add a destination
                <select aria-label="Add a handoff destination" value="" onChange={(e) => e.target.value && add(e.target.value)}>
                  <option value="">Choose an agent…</option>
                  {others
                    .filter((a) => !chosen.has(a._id))
                    .map((a) => (
                      <option key={a._id} value={a._id}>
                        {a.name}
                      </option>
                    ))}
                </select>
              </label>
            ) : others.length === 0 ? (
              <p className="hint">Create another agent to hand conversations to.</p>
            ) : null}
          </>
        )}
      </QueryView>
    </fieldset>
  );
}

/** The values the model must gather before handing over. */
function VariablesEditor({ value, onChange }: { value: readonly Variable[]; onChange: (list: Variable[]) => void }) {
  const set = (i: number, v: Variable) => onChange(value.map((x, j) => (j === i ? v : x)));
  return (
    <div className="handoff-variables">
      {value.map((v, i) => (
        <div key={i} className="handoff-variable">
          <label>
            Name
            <input aria-label="Variable name" value={v.name} placeholder="visit_date" onChange={(e) => set(i, { ...v, name: e.target.value })} />
          </label>
          <Select label="Type" options={TYPES} value={v.type} onChange={(e) => set(i, { ...v, type: e.target.value as Variable['type'] })} />
          <label>
            What it is
            <input aria-label="What it is" value={v.description} placeholder="the day of the visit" onChange={(e) => set(i, { ...v, description: e.target.value })} />
          </label>
          <Button onClick={() => onChange(value.filter((_, j) => j !== i))}>Remove</Button>
        </div>
      ))}
      <Button onClick={() => onChange([...value, { name: '', type: 'string', description: '', required: true }])}>Add a value to gather</Button>
    </div>
  );
}
