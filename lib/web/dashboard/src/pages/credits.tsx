import { useQuery } from '@tanstack/react-query';
import { UsageChart } from '../charts.js';
import { addCreditsCommand } from '../add-credits.js';
import { call, useSession } from '../session.js';
import { DataTable, Empty, PageHeader, QueryView, formatCredits } from '../ui.js';

/** What an empty balance needs: there are no payments in the dashboard, so the operator's CLI line for each platform. */
function AddCredits({ workspaceId }: { workspaceId: string }) {
  return (
    <section className="card" aria-labelledby="add-credits-heading">
      <h2 id="add-credits-heading">How to add credits</h2>
      <p>Credits are added by whoever runs the platform, with its admin CLI in the platform’s folder.</p>
      <p>On your computer (the platform started with <code>npm start</code>):</p>
      <pre className="command" data-testid="add-credits-local">
        <code>{addCreditsCommand(workspaceId, false)}</code>
      </pre>
      <p>On AWS (a deployed stack, with AWS credentials for its account):</p>
      <pre className="command" data-testid="add-credits-aws">
        <code>{addCreditsCommand(workspaceId, true)}</code>
      </pre>
      <p>The page shows the new balance when you open it again.</p>
    </section>
  );
}

export function CreditsPage() {
  const { session } = useSession();
  const credits = useQuery({ queryKey: ['credits'], queryFn: () => call((c) => c.GET('/api/credits')) });
  return (
    <>
      <PageHeader title="Credits" description="Calls are paid in credits: one price per minute for every call, rounded up to the second." />
      <QueryView query={credits} what="credits">
        {(c) => {
          const used = c.usage.reduce((s, d) => s + d.credits, 0);
          const calls = c.usage.reduce((s, d) => s + d.calls, 0);
          return (
            <>
              <div className="stats">
                <div className="stat">
                  <span className="stat-label">Balance</span>
                  <span className="stat-value" data-testid="credit-balance">
                    {formatCredits(c.balance)}
                  </span>
                </div>
                <div className="stat">
                  <span className="stat-label">Held by calls in progress</span>
                  <span className="stat-value">{formatCredits(c.reserved)}</span>
                </div>
                <div className="stat">
                  <span className="stat-label">Used in the last 30 days</span>
                  <span className="stat-value">{formatCredits(used)}</span>
                  <span className="stat-note">{calls === 1 ? "1 call" : `${calls} calls`}</span>
                </div>
              </div>
              {c.balance < 1 ? (
                <div className="notice notice-warning" role="status">
                  The balance is too low for new calls: they are refused (402) until it is topped up.
                </div>
              ) : null}
              {c.balance < 1 && session ? <AddCredits workspaceId={session.workspace.id} /> : null}
              <section className="card" aria-labelledby="usage-heading">
                <h2 id="usage-heading">Usage per day</h2>
                {c.usage.length === 0 || used === 0 ? (
                  <Empty title="No calls in the last 30 days" />
                ) : (
                  <>
                    <UsageChart days={c.usage} />
                    <details>
                      <summary>Figures per day</summary>
                      <DataTable
                        caption="Credits used per day"
                        rows={c.usage.filter((d) => d.calls > 0)}
                        rowKey={(d) => d.day}
                        columns={[
                          { header: 'Day', cell: (d) => d.day },
                          { header: 'Credits', className: 'num', cell: (d) => formatCredits(d.credits) },
                          { header: 'Calls', className: 'num', cell: (d) => d.calls },
                        ]}
                      />
                    </details>
                  </>
                )}
              </section>
              <section className="card" aria-labelledby="refused-heading">
                <h2 id="refused-heading">When a call is refused for credits (402)</h2>
                <p>
                  Starting a call takes a reservation from the balance up front: the per-minute price times the agent’s longest call (10 credits with the
                  defaults). If the balance is below that, the call is refused with <code>402 insufficient_credits</code>, and the error says how many credits
                  were required and how many were available. Meeting links and the widget need the same amount; an inbound caller the workspace cannot cover hears
                  a short apology. When a call ends, only the seconds it lasted are charged and the rest of the reservation goes back to the balance.
                </p>
                <p>To avoid it, keep the balance above a few calls’ worth, or lower the agents’ longest call so each reservation is smaller.</p>
              </section>
            </>
          );
        }}
      </QueryView>
    </>
  );
}
