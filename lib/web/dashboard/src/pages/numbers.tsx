import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { Schemas } from '../api.js';
import { call } from '../session.js';
import { Button, ConfirmDialog, DataTable, Dialog, Empty, ErrorNotice, PageHeader, Pager, QueryView, TextField, formatDate } from '../ui.js';

type PhoneNumber = Schemas['PhoneNumber'];
type Available = Schemas['AvailablePhoneNumber'];

/**
 * The last step before buying: the number, where it is, what it can do and what it costs. The search answer
 * carries no price, and buying takes no credits from the workspace (docs/telephony.md, "Buying"): the
 * provider bills the platform's account monthly. So the cost said here is that, in words.
 */
function ConfirmBuy({ n, busy, onBuy, onBack }: { n: Available; busy: boolean; onBuy: () => void; onBack: () => void }) {
  const can = n.capabilities ? (['voice', 'sms', 'mms'] as const).filter((k) => n.capabilities![k]).map((k) => k.toUpperCase()) : [];
  return (
    <section className="confirm card" aria-labelledby="confirm-buy-heading">
      <h3 id="confirm-buy-heading">Buy {n.friendlyName}?</h3>
      <dl className="facts">
        <dt>Number</dt>
        <dd>
          <code>{n.number}</code>
        </dd>
        <dt>Where</dt>
        <dd>{[n.locality, n.region, n.country].filter(Boolean).join(', ') || n.country}</dd>
        {can.length ? (
          <>
            <dt>Can do</dt>
            <dd>{can.join(', ')}</dd>
          </>
        ) : null}
        <dt>Price</dt>
        <dd data-testid="number-price">No credits: buying takes nothing from this workspace's balance. The provider bills the platform's account for the number each month; calls on it cost credits as usual.</dd>
      </dl>
      <p>It is yours until you release it; agents can call from it at once.</p>
      <div className="form-actions">
        <Button autoFocus onClick={onBack}>
          Back to the results
        </Button>
        <Button variant="primary" busy={busy} onClick={onBuy}>
          Buy {n.friendlyName}
        </Button>
      </div>
    </section>
  );
}

function BuyForm({ onDone }: { onDone: () => void }) {
  const queries = useQueryClient();
  const [country, setCountry] = useState('US');
  const [areaCode, setAreaCode] = useState('');
  const [contains, setContains] = useState('');
  const [criteria, setCriteria] = useState<{ country: string; areaCode: string; contains: string } | null>(null);
  const [chosen, setChosen] = useState<Available | null>(null);
  const found = useQuery({
    queryKey: ['available', criteria],
    queryFn: () =>
      call((c) =>
        c.GET('/api/phone-numbers/available', {
          params: { query: { country: criteria?.country || undefined, areaCode: criteria?.areaCode || undefined, contains: criteria?.contains || undefined, limit: 10 } },
        }),
      ),
    enabled: criteria !== null,
  });
  const buy = useMutation({
    mutationFn: (phoneNumber: string) => call((c) => c.POST('/api/phone-numbers/buy', { body: { phoneNumber } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['numbers'] });
      onDone();
    },
  });
  return (
    <>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          setCriteria({ country, areaCode, contains });
        }}
      >
        <TextField label="Country" maxLength={2} required value={country} onChange={(e) => setCountry(e.target.value)} />
        <TextField label="Area code" inputMode="numeric" maxLength={3} placeholder="415" value={areaCode} onChange={(e) => setAreaCode(e.target.value)} />
        <TextField label="Contains" maxLength={16} placeholder="digits or letters" value={contains} onChange={(e) => setContains(e.target.value)} />
        <Button type="submit" busy={found.isFetching}>
          Search
        </Button>
      </form>
      {chosen ? (
        <ConfirmBuy n={chosen} busy={buy.isPending} onBuy={() => buy.mutate(chosen.number)} onBack={() => setChosen(null)} />
      ) : criteria ? (
        <QueryView query={found} what="numbers for sale">
          {({ data }) =>
            data.length === 0 ? (
              <Empty title="No numbers match">
                <p>Try another area code or fewer digits.</p>
              </Empty>
            ) : (
              <ul className="number-results">
                {data.map((n) => (
                  <li key={n.number}>
                    <span>
                      <strong>{n.friendlyName}</strong>
                      <span className="cell-note">{[n.locality, n.region, n.country].filter(Boolean).join(', ')}</span>
                    </span>
                    <Button variant="primary" onClick={() => setChosen(n)} aria-label={`Buy ${n.friendlyName}…`}>
                      Buy…
                    </Button>
                  </li>
                ))}
              </ul>
            )
          }
        </QueryView>
      ) : null}
      <ErrorNotice error={buy.error} />
    </>
  );
}

function ImportForm({ onDone }: { onDone: () => void }) {
  const queries = useQueryClient();
  const [phoneNumber, setPhoneNumber] = useState('');
  const [sid, setSid] = useState('');
  const [token, setToken] = useState('');
  const run = useMutation({
    mutationFn: () => call((c) => c.POST('/api/phone-numbers/import', { body: { phoneNumber, telephonyAccountSid: sid, telephonyAuthToken: token } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['numbers'] });
      onDone();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        run.mutate();
      }}
    >
      <p>Bring a number from your own Twilio account. We point its voice webhooks at the platform; releasing it removes them again.</p>
      <TextField label="Phone number" required placeholder="+14155550142" value={phoneNumber} onChange={(e) => setPhoneNumber(e.target.value)} />
      <TextField label="Twilio account SID" required placeholder="AC…" value={sid} onChange={(e) => setSid(e.target.value)} />
      <TextField label="Twilio auth token" type="password" autoComplete="off" required hint="Stored encrypted; never shown again." value={token} onChange={(e) => setToken(e.target.value)} />
      <ErrorNotice error={run.error} />
      <div className="dialog-footer">
        <Button onClick={onDone}>Cancel</Button>
        <Button variant="primary" type="submit" busy={run.isPending}>
          Import number
        </Button>
      </div>
    </form>
  );
}

/** The agent answering a number's calls, saved as it is chosen (the list's rows and the number's page). */
export function AssignAgent({ number, agents }: { number: PhoneNumber; agents: readonly { _id: string; name: string }[] }) {
  const queries = useQueryClient();
  const assign = useMutation({
    mutationFn: (agentId: string | null) => call((c) => c.PATCH('/api/phone-numbers/{id}', { params: { path: { id: number._id } }, body: { agentId } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['numbers'] });
      void queries.invalidateQueries({ queryKey: ['number', number._id] });
    },
  });
  return (
    <>
      <label className="visually-hidden" htmlFor={`assign-${number._id}`}>
        Agent answering {number.number}
      </label>
      <select id={`assign-${number._id}`} value={number.agentId ?? ''} disabled={assign.isPending} onChange={(e) => assign.mutate(e.target.value || null)}>
        <option value="">No agent (inbound calls not answered)</option>
        {agents.map((a) => (
          <option key={a._id} value={a._id}>
            {a.name}
          </option>
        ))}
      </select>
      <ErrorNotice error={assign.error} />
    </>
  );
}

export function PhoneNumbersPage() {
  const queries = useQueryClient();
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<'buy' | 'import' | null>(null);
  const [releasing, setReleasing] = useState<PhoneNumber | null>(null);
  const numbers = useQuery({ queryKey: ['numbers', page], queryFn: () => call((c) => c.GET('/api/phone-numbers', { params: { query: { page, limit: 20 } } })) });
  const agents = useQuery({ queryKey: ['agents', 'options'], queryFn: () => call((c) => c.GET('/api/agents', { params: { query: { limit: 100 } } })) });
  const release = useMutation({
    mutationFn: (id: string) => call((c) => c.DELETE('/api/phone-numbers/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setReleasing(null);
      void queries.invalidateQueries({ queryKey: ['numbers'] });
    },
  });
  return (
    <>
      <PageHeader
        title="Phone numbers"
        description="Numbers your agents call from, and answer on when you assign an agent."
        actions={
          <>
            <Button onClick={() => setDialog('import')}>Import a number</Button>
            <Button variant="primary" onClick={() => setDialog('buy')}>
              Buy a number
            </Button>
          </>
        }
      />
      <QueryView query={numbers} what="phone numbers">
        {(result) =>
          result.data.length === 0 ? (
            <Empty title="No phone numbers yet">
              <p>Buy a number, or import one from your own Twilio account.</p>
            </Empty>
          ) : (
            <>
              <DataTable
                caption="Phone numbers"
                rows={result.data}
                rowKey={(n) => n._id}
                columns={[
                  {
                    header: 'Number',
                    cell: (n) => (
                      <>
                        <Link to={`/phone-numbers/${n._id}`}>
                          <code>{n.number}</code>
                        </Link>
                        {n.inbound_webhook_url ? <span className="cell-note">Inbound webhook</span> : null}
                      </>
                    ),
                  },
                  { header: 'Source', cell: (n) => (n.type === 'byot' ? 'Imported' : 'Bought') },
                  { header: 'Answered by', cell: (n) => <AssignAgent number={n} agents={agents.data?.data ?? []} /> },
                  { header: 'Added', cell: (n) => formatDate(n.createdAt) },
                  {
                    header: 'Actions',
                    hideHeader: true,
                    className: 'actions',
                    cell: (n) => (
                      <Button variant="danger" onClick={() => setReleasing(n)} aria-label={`Release ${n.number}`}>
                        Release
                      </Button>
                    ),
                  },
                ]}
              />
              <Pager page={result.page} limit={result.limit} total={result.total} onPage={setPage} what="Phone numbers" />
            </>
          )
        }
      </QueryView>
      <Dialog open={dialog === 'buy'} title="Buy a phone number" onClose={() => setDialog(null)} footer={<Button onClick={() => setDialog(null)}>Close</Button>}>
        <BuyForm onDone={() => setDialog(null)} />
      </Dialog>
      <Dialog open={dialog === 'import'} title="Import a phone number" onClose={() => setDialog(null)}>
        <ImportForm onDone={() => setDialog(null)} />
      </Dialog>
      <ConfirmDialog
        open={releasing !== null}
        title="Release this number?"
        confirm="Release number"
        busy={release.isPending}
        error={release.error}
        body={
          <p>
            {releasing?.type === 'byot'
              ? `${releasing?.number} stays in your Twilio account; we remove our webhooks from it.`
              : `${releasing?.number} goes back to the provider and may be given to someone else.`}{' '}
            Calls to it are no longer answered by an agent.
          </p>
        }
        onConfirm={() => releasing && release.mutate(releasing._id)}
        onClose={() => setReleasing(null)}
      />
    </>
  );
}
