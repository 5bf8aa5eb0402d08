import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../api.js';
import { call } from '../session.js';
import { Button, ErrorNotice, Notice, QueryView, TextField, formatDate } from '../ui.js';

type Agent = Schemas['Agent'];

/** A field's value as one short line. */
const shown = (v: unknown) => (v === undefined ? '(not set)' : typeof v === 'string' ? (v === '' ? '(empty)' : v) : JSON.stringify(v));

/** What a diff found, as a definition list: each field, then its value before and after. */
function Changes({ changes }: { changes: Schemas['AgentDiff']['changes'] }) {
  if (changes.length === 0) return <p className="hint">No differences.</p>;
  return (
    <dl className="changes">
      {changes.map((c) => (
        <div key={c.field}>
          <dt>
            <code>{c.field}</code>
          </dt>
          <dd>
            <del>{shown(c.before)}</del> <ins>{shown(c.after)}</ins>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The agent's versions (docs/agent-versions.md): which one calls run, whether the draft has unpublished
 * edits and what they are, publishing with a note, and each version restored as the draft or rolled back to.
 */
export function VersionsCard({ agent }: { agent: Agent }) {
  const queries = useQueryClient();
  const [note, setNote] = useState('');
  const [comparing, setComparing] = useState(false);
  const path = { params: { path: { id: agent._id } } };
  const versions = useQuery({ queryKey: ['agent-versions', agent._id], queryFn: () => call((c) => c.GET('/api/agents/{id}/versions', { ...path, params: { ...path.params, query: { limit: 10 } } })) });
  const diff = useQuery({
    queryKey: ['agent-diff', agent._id, agent.updatedAt],
    queryFn: () => call((c) => c.GET('/api/agents/{id}/diff', path)),
    enabled: comparing && agent.published_version !== null,
  });
  const refresh = (saved?: Agent) => {
    if (saved) queries.setQueryData(['agent', agent._id], saved);
    else void queries.invalidateQueries({ queryKey: ['agent', agent._id] });
    void queries.invalidateQueries({ queryKey: ['agent-versions', agent._id] });
    void queries.invalidateQueries({ queryKey: ['agent-diff', agent._id] });
  };
  const publish = useMutation({
    mutationFn: () => call((c) => c.POST('/api/agents/{id}/publish', { ...path, body: { note } })),
    onSuccess: () => {
      setNote('');
      setComparing(false);
      refresh();
    },
  });
  const restore = useMutation({
    mutationFn: ({ version, live }: { version: number; live: boolean }) =>
      call((c) => c.POST('/api/agents/{id}/versions/{version}/restore', { params: { path: { id: agent._id, version } }, body: { publish: live } })),
    onSuccess: (saved) => refresh(saved),
  });
  const published = agent.published_version;
  return (
    <section className="card versions" aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      {published === null ? (
        <p>Not published: every saved change reaches the next call. Publish to freeze these settings; later edits then wait until you publish them.</p>
      ) : (
        <p>
          Calls run <strong>version {published}</strong>.{' '}
          {agent.has_unpublished_changes ? 'The settings on this page have changes that are not published.' : 'The settings on this page are published.'}
        </p>
      )}
      {published !== null && agent.has_unpublished_changes ? (
        <>
          <Button aria-expanded={comparing} onClick={() => setComparing(!comparing)}>
            {comparing ? 'Hide changes' : `Compare with version ${published}`}
          </Button>
          {comparing ? <QueryView query={diff} what="the changes">{(d) => <Changes changes={d.changes} />}</QueryView> : null}
        </>
      ) : null}
      {published === null || agent.has_unpublished_changes ? (
        <form
          className="publish"
          onSubmit={(e) => {
            e.preventDefault();
            publish.mutate();
          }}
        >
          <TextField label="What changed (optional)" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
          <Button variant="primary" type="submit" busy={publish.isPending}>
            Publish version {(published ?? 0) + 1}
          </Button>
        </form>
      ) : null}
      <ErrorNotice error={publish.error ?? restore.error} />
      {publish.data && !agent.has_unpublished_changes ? <Notice kind="success">Published version {publish.data.version}.</Notice> : null}
      {restore.data ? <Notice kind="success">{restore.variables?.live ? `Version ${restore.variables.version} is live again, as version ${restore.data.published_version}.` : `Version ${restore.variables?.version} is the draft again; publish it to make it live.`}</Notice> : null}
      <QueryView query={versions} what="the versions">
        {(page) =>
          page.data.length === 0 ? null : (
            <ol className="version-list" aria-label="Published versions">
              {page.data.map((v) => (
                <li key={v.version}>
                  <span>
                    <strong>Version {v.version}</strong> · {formatDate(v.publishedAt)}
                    {v.note ? <span className="hint"> · {v.note}</span> : null}
                  </span>
                  <span className="row-actions">
                    <Button onClick={() => restore.mutate({ version: v.version, live: false })} aria-label={`Restore version ${v.version} as the draft`}>
                      Restore
                    </Button>
                    {v.version !== published ? (
                      <Button onClick={() => restore.mutate({ version: v.version, live: true })} aria-label={`Roll back to version ${v.version}`}>
                        Roll back
                      </Button>
                    ) : null}
                  </span>
                </li>
              ))}
            </ol>
          )
        }
      </QueryView>
    </section>
  );
}
