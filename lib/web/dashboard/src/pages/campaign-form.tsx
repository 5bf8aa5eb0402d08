import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { formData, type Schemas } from '../api.js';
import { DEFAULT_CONCURRENCY, DEFAULT_RETRY, DEFAULT_WINDOW, RETRIED_OUTCOMES, WEEKDAYS, WEEKDAY_LABEL, OUTCOME_LABEL, type RetriedOutcome, type RetryRule, type Weekday } from '../campaign-defaults.js';
import { useAgentOptions, useNumberOptions } from '../options.js';
import { call, currentWorkspaceId } from '../session.js';
import { Button, ErrorNotice, Select, TextField, useDebounced } from '../ui.js';

/** The create form of a campaign: the fields that matter, prefilled with the API's defaults. */

type Who = 'pick' | 'search' | 'upload';

function ContactChoice({ picked, onPick }: { picked: ReadonlySet<string>; onPick: (ids: Set<string>) => void }) {
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim());
  const list = useQuery({ queryKey: ['contacts', term, 'campaign'], queryFn: () => call((c) => c.GET('/api/contacts', { params: { query: { search: term || undefined, limit: 20 } } })) });
  const toggle = (id: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(id);
    else next.delete(id);
    onPick(next);
  };
  return (
    <div className="contact-choice">
      <TextField label="Find contacts" type="search" placeholder="Name or phone number" value={search} onChange={(e) => setSearch(e.target.value)} />
      <p className="hint" aria-live="polite">
        {picked.size} chosen
      </p>
      <ul className="plain check-list">
        {(list.data?.data ?? []).map((c) => (
          <li key={c._id}>
            <label className="check">
              <input type="checkbox" checked={picked.has(c._id)} onChange={(e) => toggle(c._id, e.target.checked)} />
              {c.contactName} <span className="cell-note">{c.phoneNumber}</span>
            </label>
          </li>
        ))}
      </ul>
      {list.data && list.data.data.length === 0 ? <p className="hint">No contacts match.</p> : null}
      <ErrorNotice error={list.error} />
    </div>
  );
}

function RetryRules({ retry, onChange }: { retry: Record<RetriedOutcome, RetryRule>; onChange: (r: Record<RetriedOutcome, RetryRule>) => void }) {
  const set = (o: RetriedOutcome, key: keyof RetryRule, value: string) => onChange({ ...retry, [o]: { ...retry[o], [key]: Number(value) } });
  return (
    <details className="retry-rules">
      <summary>Retries per outcome</summary>
      {RETRIED_OUTCOMES.map((o) => (
        <div className="grid-2" key={o}>
          <TextField label={`${OUTCOME_LABEL[o]}: retries`} type="number" min={0} max={10} value={retry[o].retries} onChange={(e) => set(o, 'retries', e.target.value)} />
          <TextField label={`${OUTCOME_LABEL[o]}: minutes before the next try`} type="number" min={1} max={10080} value={retry[o].delayMinutes} onChange={(e) => set(o, 'delayMinutes', e.target.value)} />
        </div>
      ))}
    </details>
  );
}

export function CampaignForm({ onDone }: { onDone: () => void }) {
  const queries = useQueryClient();
  const navigate = useNavigate();
  const agents = useAgentOptions();
  const numbers = useNumberOptions();
  const file = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [agentId, setAgentId] = useState('');
  const [numberIds, setNumberIds] = useState<Set<string>>(new Set());
  const [who, setWho] = useState<Who>('pick');
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [search, setSearch] = useState('');
  const [start, setStart] = useState(DEFAULT_WINDOW.start);
  const [end, setEnd] = useState(DEFAULT_WINDOW.end);
  const [days, setDays] = useState<Set<Weekday>>(new Set(DEFAULT_WINDOW.days));
  const [timeZone, setTimeZone] = useState('');
  const [startAt, setStartAt] = useState('');
  const [concurrency, setConcurrency] = useState(DEFAULT_CONCURRENCY);
  const [retry, setRetry] = useState({ ...DEFAULT_RETRY });
  const agent = agentId || agents.data?.data[0]?._id || '';
  const fromIds = numberIds.size > 0 ? [...numberIds] : numbers.data?.data[0] ? [numbers.data.data[0]._id] : [];
  const create = useMutation({
    mutationFn: async () => {
      let contacts: Schemas['CampaignCreate']['contacts'];
      if (who === 'pick') contacts = { contactIds: [...picked] };
      else if (who === 'search') contacts = { search };
      else {
        const chosen = file.current?.files?.[0];
        if (!chosen) throw new Error('Choose a CSV or Excel file of contacts first.');
        const body = { file: chosen, workspaceId: currentWorkspaceId() ?? '' };
        const imported = await call((c) => c.POST('/api/contacts/upload', { body, bodySerializer: formData }));
        // An upload that wrote no contact names none (`importId` absent): nobody to call.
        if (!imported.importId) throw new Error(`No contact of this file could be imported (${imported.errors.length} rows refused). Fix the file and try again.`);
        contacts = { importId: imported.importId };
      }
      const body: Schemas['CampaignCreate'] = {
        name,
        agentId: agent,
        phoneNumberIds: fromIds,
        contacts,
        ...(startAt ? { schedule: { startAt: new Date(startAt).toISOString() } } : {}),
        callingWindow: { start, end, days: WEEKDAYS.filter((d) => days.has(d)), ...(timeZone.trim() ? { timeZone: timeZone.trim() } : {}) },
        concurrency,
        retry,
      };
      return call((c) => c.POST('/api/campaigns', { body }));
    },
    onSuccess: (made) => {
      void queries.invalidateQueries({ queryKey: ['campaigns'] });
      void queries.invalidateQueries({ queryKey: ['contacts'] });
      onDone();
      navigate(`/campaigns/${made._id}`);
    },
  });
  const toggleNumber = (id: string, on: boolean) => {
    const next = new Set(fromIds);
    if (on) next.add(id);
    else next.delete(id);
    setNumberIds(next);
  };
  const toggleDay = (d: Weekday, on: boolean) => {
    const next = new Set(days);
    if (on) next.add(d);
    else next.delete(d);
    setDays(next);
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <TextField label="Name" required maxLength={200} autoFocus value={name} onChange={(e) => setName(e.target.value)} />
      <Select label="Agent" value={agent} options={(agents.data?.data ?? []).map((a) => [a._id, a.name] as const)} onChange={(e) => setAgentId(e.target.value)} />
      <fieldset className="choices">
        <legend>Call from</legend>
        <p className="hint">Numbers are used in turn.</p>
        {(numbers.data?.data ?? []).map((n) => (
          <label className="check" key={n._id}>
            <input type="checkbox" checked={fromIds.includes(n._id)} onChange={(e) => toggleNumber(n._id, e.target.checked)} />
            {n.number}
          </label>
        ))}
      </fieldset>
      <fieldset className="choices">
        <legend>Whom to call</legend>
        <div className="row" role="radiogroup" aria-label="Whom to call">
          {(
            [
              ['pick', 'Chosen contacts'],
              ['search', 'Contacts matching a search'],
              ['upload', 'A file of new contacts'],
            ] as const
          ).map(([value, label]) => (
            <label className="check" key={value}>
              <input type="radio" name="who" value={value} checked={who === value} onChange={() => setWho(value)} />
              {label}
            </label>
          ))}
        </div>
        {who === 'pick' ? <ContactChoice picked={picked} onPick={setPicked} /> : null}
        {who === 'search' ? <TextField label="Search" required hint="Every contact whose name or number matches, when the campaign is created." value={search} onChange={(e) => setSearch(e.target.value)} /> : null}
        {who === 'upload' ? (
          <div className="field">
            <label htmlFor="campaign-file">Contacts file</label>
            <input id="campaign-file" ref={file} type="file" required accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" aria-describedby="campaign-file-hint" />
            <p className="hint" id="campaign-file-hint">
              Imported to Contacts first (the contactName and phoneNumber columns); the campaign calls the rows it imported.
            </p>
          </div>
        ) : null}
      </fieldset>
      <fieldset className="choices">
        <legend>Calling window</legend>
        <div className="grid-2">
          <TextField label="From (local time)" type="time" required value={start} onChange={(e) => setStart(e.target.value)} />
          <TextField label="Until (local time)" type="time" required value={end} onChange={(e) => setEnd(e.target.value)} />
        </div>
        <div className="row">
          {WEEKDAYS.map((d) => (
            <label className="check" key={d}>
              <input type="checkbox" aria-label={WEEKDAY_LABEL[d]} checked={days.has(d)} onChange={(e) => toggleDay(d, e.target.checked)} />
              <span aria-hidden="true">{WEEKDAY_LABEL[d].slice(0, 3)}</span>
            </label>
          ))}
        </div>
        <TextField label="Time zone" placeholder="America/New_York" hint="Empty: each contact's own (their timeZone field, else their number's country)." value={timeZone} onChange={(e) => setTimeZone(e.target.value)} />
      </fieldset>
      <div className="grid-2">
        <TextField label="Starts" type="datetime-local" hint="Empty: as soon as it is started." value={startAt} onChange={(e) => setStartAt(e.target.value)} />
        <TextField label="Calls at once" type="number" min={1} max={1000} required value={concurrency} onChange={(e) => setConcurrency(Number(e.target.value))} />
      </div>
      <RetryRules retry={retry} onChange={setRetry} />
      <ErrorNotice error={create.error} />
      <div className="dialog-footer">
        <Button onClick={onDone}>Cancel</Button>
        <Button variant="primary" type="submit" busy={create.isPending}>
          Create campaign
        </Button>
      </div>
    </form>
  );
}
