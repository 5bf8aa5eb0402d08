import { Fragment } from 'react';
import type { Schemas } from '../api.js';

/**
 * What a call ran with beyond its agent (docs/call-data.md): the `variables` that filled its texts, the agent
 * fields `agent_overrides` changed for it (by name: the values are the request's or the inbound webhook's),
 * and its `metadata`. Nothing when it had none of them.
 */
export function CallData({ record }: { record: Pick<Schemas['HistoryRecord'], 'variables' | 'agentOverrides' | 'metadata'> }) {
  const variables = Object.entries(record.variables ?? {});
  const overrides = record.agentOverrides ?? [];
  const metadata = record.metadata && Object.keys(record.metadata).length > 0 ? record.metadata : undefined;
  if (variables.length === 0 && overrides.length === 0 && !metadata) return null;
  return (
    <section className="card" aria-labelledby="call-data-heading">
      <h2 id="call-data-heading">Call data</h2>
      <dl className="facts">
        {variables.length > 0 ? (
          <>
            <dt>Variables</dt>
            <dd>
              <dl className="facts" data-testid="call-variables">
                {variables.map(([name, value]) => (
                  <Fragment key={name}>
                    <dt>
                      <code>{name}</code>
                    </dt>
                    <dd>{String(value)}</dd>
                  </Fragment>
                ))}
              </dl>
            </dd>
          </>
        ) : null}
        {overrides.length > 0 ? (
          <>
            <dt>Agent overrides</dt>
            <dd data-testid="call-overrides">
              {overrides.map((field, i) => (
                <span key={field}>
                  {i > 0 ? ', ' : null}
                  <code>{field}</code>
                </span>
              ))}
              <span className="cell-note">For this call only; the agent itself is unchanged.</span>
            </dd>
          </>
        ) : null}
        {metadata ? (
          <>
            <dt>Metadata</dt>
            <dd>
              <pre className="command" data-testid="call-metadata">
                <code>{JSON.stringify(metadata, null, 2)}</code>
              </pre>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
