import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import type { Schemas } from '../api.js';
import { useAgentOptions } from '../options.js';
import { call } from '../session.js';
import { Button, DataTable, ErrorNotice, PageHeader, Pager, QueryView, TextField, formatDate } from '../ui.js';
import { AssignAgent } from './numbers.js';
import { SecretOnce } from './webhooks.js';

/**
 * One phone number: the agent answering it, its inbound webhook (set, replaced or removed; the signing
 * secret shown once) and the webhook's recent answers (docs/telephony.md, "Inbound webhook").
 */

type PhoneNumber = Schemas['PhoneNumber'];
type InboundDelivery = Schemas['InboundDelivery'];

const OUTCOME_LABEL: Record<InboundDelivery['outcome'], string> = { routed: 'Routed', rejected: 'Rejected', fallback: 'Fallback' };

function InboundWebhook({ number }: { number: PhoneNumber }) {
  const queries = useQueryClient();
  const [url, setUrl] = useState(number.inbound_webhook_url ?? '');
  const save = useMutation({
    mutationFn: (next: string | null) => call((c) => c.PATCH('/api/phone-numbers/{id}', { params: { path: { id: number._id } }, body: { inbound_webhook_url: next } })),
    onSuccess: (saved) => {
      setUrl(saved.inbound_webhook_url ?? '');
      void queries.invalidateQueries({ queryKey: ['number', number._id] });
      void queries.invalidateQueries({ queryKey: ['numbers'] });
    },
  });
  const secret = save.data?.inbound_webhook_secret;
  return (
    <section className="card" aria-labelledby="inbound-webhook-heading">
      <h2 id="inbound-webhook-heading">Inbound webhook</h2>
      <p className="hint">
        Asked before each inbound call is answered (the caller hears ringing, for up to 3 s): your server may pick the agent, give the call’s variables and metadata, or reject it.
        Without an answer in time, the agent above answers.
      </p>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(url.trim());
        }}
      >
        <TextField label="Webhook URL" type="url" required placeholder="https://crm.example.com/voice/inbound" value={url} onChange={(e) => setUrl(e.target.value)} />
        <Button type="submit" variant="primary" busy={save.isPending && save.variables !== null}>
          Save webhook
        </Button>
        {number.inbound_webhook_url ? (
          <Button variant="danger" busy={save.isPending && save.variables === null} onClick={() => save.mutate(null)}>
            Remove webhook
          </Button>
        ) : null}
      </form>
      <ErrorNotice error={save.error} />
      {secret ? <SecretOnce secret={secret} note="Requests to this URL are signed with it (Standard Webhooks, as the workspace’s webhooks are); saving the same URL again shows it again." /> : null}
      {save.isSuccess && save.variables === null ? <p role="status">Removed: calls are answered by the number’s agent without asking.</p> : null}
    </section>
  );
}

function InboundAnswers({ id, agents }: { id: string; agents: ReadonlyMap<string, string> }) {
  const [page, setPage] = useState(1);
  const answers = useQuery({
    queryKey: ['inbound-deliveries', id, page],
    queryFn: () => call((c) => c.GET('/api/phone-numbers/{id}/inbound-deliveries', { params: { path: { id }, query: { page, limit: 20 } } })),
    placeholderData: (p) => p,
  });
  return (
    <section className="card" aria-labelledby="inbound-answers-heading">
      <h2 id="inbound-answers-heading">Recent inbound answers</h2>
      <QueryView query={answers} what="inbound answers">
        {(r) =>
          r.data.length === 0 ? (
            <p className="hint">No answers yet: each inbound call asks the webhook once.</p>
          ) : (
            <>
              <DataTable
                caption="Inbound webhook answers"
                rows={r.data}
                rowKey={(d) => d._id}
                columns={[
                  // The answered call's page; a rejected call was never answered, so it has none.
                  { header: 'When', cell: (d) => (d.outcome === 'rejected' ? formatDate(d.createdAt) : <Link to={`/history/${d.callId}`}>{formatDate(d.createdAt)}</Link>) },
                  {
                    header: 'Outcome',
                    cell: (d) => (
                      <>
                        <span className={`badge badge-inbound-${d.outcome}`}>{OUTCOME_LABEL[d.outcome]}</span>
                        {d.reason ? <span className="cell-note">{d.reason}</span> : null}
                      </>
                    ),
                  },
                  { header: 'Answered by', cell: (d) => (d.agentId ? agents.get(d.agentId) ?? d.agentId : '—') },
                  {
                    header: 'Your server',
                    cell: (d) => (
                      <>
                        {d.status ?? 'no answer'} · {d.latencyMs} ms
                        {d.responseExcerpt ? <span className="cell-note clip">{d.responseExcerpt}</span> : null}
                      </>
                    ),
                  },
                ]}
              />
              <Pager page={r.page} limit={r.limit} total={r.total} onPage={setPage} what="Inbound answers" />
            </>
          )
        }
      </QueryView>
    </section>
  );
}

export function PhoneNumberPage() {
  const { id = '' } = useParams();
  const number = useQuery({ queryKey: ['number', id], queryFn: () => call((c) => c.GET('/api/phone-numbers/{id}', { params: { path: { id } } })) });
  const agents = useAgentOptions();
  const agentList = agents.data?.data ?? [];
  return (
    <>
      <p className="breadcrumb">
        <Link to="/phone-numbers">← Phone numbers</Link>
      </p>
      <QueryView query={number} what="the number">
        {(n) => (
          <>
            <PageHeader title={n.number} description={`${n.type === 'byot' ? 'Imported' : 'Bought'} ${formatDate(n.createdAt)}`} />
            <section className="card" aria-labelledby="answered-by-heading">
              <h2 id="answered-by-heading">Answered by</h2>
              <AssignAgent number={n} agents={agentList} />
            </section>
            <InboundWebhook number={n} />
            <InboundAnswers id={id} agents={new Map(agentList.map((a) => [a._id, a.name]))} />
          </>
        )}
      </QueryView>
    </>
  );
}
