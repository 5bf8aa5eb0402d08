import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { liveState, useLiveCalls, type LiveCall } from '../live.js';
import { DataTable, formatDate } from '../ui.js';

/**
 * The calls in progress, above History's ended calls: refreshed every few seconds while any is live, and
 * when one ends (it leaves this list) the ended calls are asked for again, since it is now among them.
 */
export function LiveCalls({ agents }: { agents: ReadonlyMap<string, string> }) {
  const live = useLiveCalls();
  const queries = useQueryClient();
  const seen = useRef<string>('');
  const ids = (live.data ?? []).map((c) => c.id).join(',');
  useEffect(() => {
    const before = seen.current.split(',').filter(Boolean);
    seen.current = ids;
    if (before.some((id) => !ids.split(',').includes(id))) void queries.invalidateQueries({ queryKey: ['history'] });
  }, [ids, queries]);
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
          { header: 'To', cell: (c) => <code>{c.to}</code> },
          { header: 'From', cell: (c) => <code>{c.from}</code> },
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
