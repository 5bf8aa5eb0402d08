import { useEffect, useRef, useState } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { LIVE_REFRESH_MS, liveState, useLiveCalls, type LiveCall } from '../live.js';
import { call } from '../session.js';
import { DataTable, formatDate } from '../ui.js';

/**
 * The calls in progress, above History's ended calls: refreshed every few seconds while any is live. A call
 * that leaves this list is asked for (`GET /api/calls/{id}`) until it names its history record (written a
 * moment after the end), and then the ended calls are asked for again, since it is now among them.
 */
export function LiveCalls({ agents }: { agents: ReadonlyMap<string, string> }) {
  const live = useLiveCalls();
  const queries = useQueryClient();
  const seen = useRef<readonly string[]>([]);
  const [ended, setEnded] = useState<readonly string[]>([]);
  const ids = (live.data ?? []).map((c) => c.id).join(',');
  useEffect(() => {
    const now = ids.split(',').filter(Boolean);
    const gone = seen.current.filter((id) => !now.includes(id));
    seen.current = now;
    if (gone.length > 0) setEnded((e) => [...e, ...gone]);
  }, [ids]);
  const endedCalls = useQueries({
    queries: ended.map((id) => ({
      queryKey: ['live-call', id],
      queryFn: () => call((c) => c.GET('/api/calls/{id}', { params: { path: { id } } })),
      refetchInterval: (q: { state: { data?: { historyId: string | null } } }) => (q.state.data?.historyId === null ? LIVE_REFRESH_MS : false),
    })),
  });
  const recorded = endedCalls.filter((q) => q.data?.historyId || q.isError).length;
  useEffect(() => {
    if (recorded > 0) void queries.invalidateQueries({ queryKey: ['history'] });
  }, [recorded, queries]);
  const rows = live.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section className="live-calls" aria-labelledby="live-heading">
      <h2 id="live-heading">
        In progress <span className="badge badge-live">{rows.length}</span>
      </h2>
      <DataTable<LiveCall>
        caption="Calls in progress"
        rows={rows}
        rowKey={(c) => c.id}
        columns={[
          { header: 'Started', cell: (c) => <Link to={`/history/${c.id}`}>{formatDate(c.createdAt)}</Link> },
          { header: 'To', cell: (c) => (c.from ? <code>{c.to}</code> : c.to) },
          { header: 'From', cell: (c) => (c.from ? <code>{c.from}</code> : 'Browser') },
          { header: 'Type', className: 'capitalize', cell: (c) => c.type },
          { header: 'Agent', cell: (c) => agents.get(c.agentId) ?? c.agentId },
          { header: 'Direction', cell: (c) => c.direction.charAt(0).toUpperCase() + c.direction.slice(1) },
          {
            header: 'State',
            cell: (c) => (
              <span className="badge badge-live">
                <span className="live-dot" aria-hidden="true" />
                {liveState(c.state)}
              </span>
            ),
          },
        ]}
      />
    </section>
  );
}
