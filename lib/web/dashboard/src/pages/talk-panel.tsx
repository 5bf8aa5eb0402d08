import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { Schemas } from '../api.js';
import { ApiError } from '../api.js';
import { StandInsNotice } from '../stand-ins.js';
import { call } from '../session.js';
import { BUILT_IN_VARIABLES, variablesIn } from '../template.js';
import { Button, ErrorNotice, TextField } from '../ui.js';

const SET_BY_PLATFORM = new Set<string>(BUILT_IN_VARIABLES.filter((n) => n !== 'contactName' && n !== 'phoneNumber'));

/**
 * The names a test call must be given: every `{{name}}` without a default in the agent's prompt and first
 * message (the texts a browser call speaks from), but the ones the platform sets on every call. A test call
 * has no contact, so a contact's fields (`contactName` too) are asked for like any other (docs/call-data.md).
 */
function neededVariables(agent: Pick<Schemas['Agent'], 'system_prompt' | 'first_message'>): string[] {
  return variablesIn(`${agent.system_prompt}\n${agent.first_message}`).filter((n) => !SET_BY_PLATFORM.has(n));
}

/**
 * "Talk to this agent": a single-use meeting link with the values its prompt needs, opened in a new tab on
 * the meeting page (docs/meeting.md).
 */
export function TalkToAgent({ agent }: { agent: Pick<Schemas['Agent'], '_id' | 'system_prompt' | 'first_message' | 'published_version'> }) {
  const needed = neededVariables(agent);
  const [values, setValues] = useState<Record<string, string>>({});
  const link = useMutation({
    mutationFn: () => {
      const variables = Object.fromEntries(needed.filter((n) => values[n]?.trim()).map((n) => [n, values[n]!.trim()]));
      // A published agent's test call tries the draft: what this page edits, before it is published.
      return call((c) => c.POST('/api/optimus/meeting-link', { body: { assistantId: agent._id, ...(needed.length ? { variables } : {}), ...(agent.published_version !== null ? { agent_version: 'draft' as const } : {}) } }));
    },
  });
  const fieldError = (name: string) => (link.error instanceof ApiError ? link.error.forField(`variables.${name}`) : undefined);
  return (
    <section className="card" aria-labelledby="talk-heading">
      <h2 id="talk-heading">Talk to this agent</h2>
      <p>Try the agent in your browser with your microphone. The call uses credits and shows up in History like any other.</p>
      {agent.published_version !== null ? <p className="hint">The test call runs the settings on this page (the draft); other calls run version {agent.published_version}.</p> : null}
      <StandInsNotice agentId={agent._id} />
      {needed.length > 0 && !link.data ? (
        <fieldset className="talk-variables">
          <legend>Values for this call</legend>
          {needed.map((name) => (
            <TextField key={name} label={name} value={values[name] ?? ''} error={fieldError(name)} maxLength={2000} onChange={(e) => setValues({ ...values, [name]: e.target.value })} />
          ))}
        </fieldset>
      ) : null}
      {link.data ? (
        <div className="row">
          <a className="btn btn-primary" href={link.data.room_url} target="_blank" rel="noopener noreferrer">
            Open the call (new tab)
          </a>
          <Button variant="ghost" onClick={() => link.reset()}>
            New link
          </Button>
        </div>
      ) : (
        <Button onClick={() => link.mutate()} busy={link.isPending}>
          Start a test call
        </Button>
      )}
      {link.data ? <p className="hint">The link works once. Saved changes apply to calls started after them.</p> : null}
      <ErrorNotice error={link.error} />
    </section>
  );
}
