import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ApiError, type Schemas } from '../api.js';
import { useAgentOptions, useNumberOptions } from '../options.js';
import { looksLikeE164 } from '../phone.js';
import { call } from '../session.js';
import { Button, Empty, ErrorNotice, Notice, PageHeader, QueryView, Select, TextField, useDebounced } from '../ui.js';

/** Place a call: `POST /api/optimus/phone-call` with an agent, a number to call from and a destination. */

type ContactOption = Schemas['ContactListItem'];

function ContactPicker({ chosen, onChoose }: { chosen: ContactOption | null; onChoose: (c: ContactOption | null) => void }) {
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim());
  const found = useQuery({
    queryKey: ['contacts', term, 'picker'],
    queryFn: () => call((c) => c.GET('/api/contacts', { params: { query: { search: term, limit: 5 } } })),
    enabled: term.length > 0,
  });
  if (chosen)
    return (
      <div className="field">
        <p className="picked">
          Contact: <strong>{chosen.contactName}</strong> <code>{chosen.phoneNumber}</code>{' '}
          <Button variant="ghost" onClick={() => onChoose(null)}>
            Choose another
          </Button>
        </p>
      </div>
    );
  return (
    <fieldset className="choices">
      <legend>Contact (optional)</legend>
      <TextField label="Find a contact" type="search" placeholder="Name or phone number" hint="Fills the destination; the agent greets them with their fields." value={search} onChange={(e) => setSearch(e.target.value)} />
      {term ? (
        <QueryView query={found} what="contacts">
          {({ data }) =>
            data.length === 0 ? (
              <p className="hint">No contact matches “{term}”.</p>
            ) : (
              <ul className="plain pick-list">
                {data.map((c) => (
                  <li key={c._id}>
                    <Button variant="ghost" onClick={() => onChoose(c)}>
                      {c.contactName} <span className="cell-note">{c.phoneNumber}</span>
                    </Button>
                  </li>
                ))}
              </ul>
            )
          }
        </QueryView>
      ) : null}
    </fieldset>
  );
}

export function PlaceCallPage() {
  const queries = useQueryClient();
  const agents = useAgentOptions();
  const numbers = useNumberOptions();
  const [agentId, setAgentId] = useState('');
  const [numberId, setNumberId] = useState('');
  const [to, setTo] = useState('');
  const [contact, setContact] = useState<ContactOption | null>(null);
  const [consented, setConsented] = useState(false);
  const [checked, setChecked] = useState(false);
  const agent = agentId || agents.data?.data[0]?._id || '';
  // The list holds active numbers only (a released number is gone from it).
  const from = numberId || numbers.data?.data[0]?._id || '';
  const place = useMutation({
    mutationFn: () =>
      call((c) =>
        c.POST('/api/optimus/phone-call', {
          body: {
            assistantId: agent,
            phoneNumberId: from,
            phoneNumber: to.trim(),
            ...(contact ? { contactName: contact.contactName } : {}),
            ...(consented ? { consentedCall: true } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['live-calls'] });
      void queries.invalidateQueries({ queryKey: ['history'] });
    },
  });
  const error = place.error instanceof ApiError ? place.error : undefined;
  const localError = checked && !looksLikeE164(to) ? 'Write the number in E.164 form: + and the country code, for example +14155552671.' : undefined;
  const dnc = error?.code === 'do_not_call';
  return (
    <>
      <PageHeader title="Place a call" description="An agent calls a phone number now, from one of your numbers." />
      <QueryView query={agents} what="agents">
        {(a) => (
          <QueryView query={numbers} what="phone numbers">
            {(n) =>
              a.data.length === 0 || n.data.length === 0 ? (
                <Empty title={a.data.length === 0 ? 'No agent yet' : 'No phone number yet'}>
                  <p>
                    A call needs an agent to speak and a number to call from. {a.data.length === 0 ? <Link to="/agents/new">Create an agent</Link> : <Link to="/phone-numbers">Buy a number</Link>}{' '}
                    first.
                  </p>
                </Empty>
              ) : (
                <form
                  className="card narrow-form"
                  noValidate
                  onSubmit={(e) => {
                    e.preventDefault();
                    setChecked(true);
                    if (looksLikeE164(to)) place.mutate();
                  }}
                >
                  <Select label="Agent" value={agent} options={a.data.map((x) => [x._id, x.name] as const)} error={error?.forField('assistantId')} onChange={(e) => setAgentId(e.target.value)} />
                  <Select label="Call from" value={from} options={n.data.map((x) => [x._id, x.number] as const)} error={error?.forField('phoneNumberId')} onChange={(e) => setNumberId(e.target.value)} />
                  <ContactPicker
                    chosen={contact}
                    onChoose={(c) => {
                      setContact(c);
                      if (c) setTo(c.phoneNumber);
                    }}
                  />
                  <TextField
                    label="Destination"
                    type="tel"
                    required
                    autoComplete="off"
                    placeholder="+14155552671"
                    hint="E.164: + and the country code, then the number."
                    error={localError ?? error?.forField('phoneNumber')}
                    value={to}
                    onChange={(e) => setTo(e.target.value)}
                  />
                  {dnc || consented ? (
                    <label className="check">
                      <input type="checkbox" checked={consented} onChange={(e) => setConsented(e.target.checked)} />
                      This person agreed to this call: call even though the number is on the do-not-call list
                    </label>
                  ) : null}
                  {error && !error.details.some((d) => d.field) ? <ErrorNotice error={error} /> : error ? <ErrorNotice error={new ApiError(error.status, error.code, error.message)} /> : null}
                  {place.data ? (
                    <Notice kind="success">
                      <strong>Call started</strong> ({place.data.status}). <Link to={`/history/${place.data.call_id}`}>Follow the call</Link> <code>{place.data.call_id}</code>
                    </Notice>
                  ) : null}
                  <div className="form-actions">
                    <Button variant="primary" type="submit" busy={place.isPending}>
                      Call now
                    </Button>
                    <span className="hint">Reserves credits for the longest call; the unused part comes back.</span>
                  </div>
                </form>
              )
            }
          </QueryView>
        )}
      </QueryView>
    </>
  );
}
