import { useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, type Schemas } from '../api.js';
import { call, currentApiKey, currentWorkspaceId } from '../session.js';
import { uploadWithProgress } from '../upload.js';
import { Button, ConfirmDialog, DataTable, Empty, ErrorNotice, Notice, PageHeader, QueryView, TextArea, TextField, formatDate } from '../ui.js';

/**
 * Knowledge bases (docs/knowledge.md): create one, upload documents or add a page or text, watch each
 * document's ingestion (the page polls while any is processing), search it as an agent would, delete.
 */

type KnowledgeDocument = Schemas['KnowledgeDocument'];
type Hit = Schemas['KnowledgeHit'];

/** How often the page asks again while a document is processing: ingestion of a page takes about a second. */
const PROCESSING_REFRESH_MS = 1_000;

const STATUS: Record<KnowledgeDocument['status'], string> = { processing: 'Processing…', ready: 'Ready', failed: 'Failed' };

export function KnowledgeBasesPage() {
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const list = useQuery({ queryKey: ['knowledge-bases'], queryFn: () => call((c) => c.GET('/api/knowledge-bases')) });
  const create = useMutation({
    mutationFn: () => call((c) => c.POST('/api/knowledge-bases', { body: { name } })),
    onSuccess: (kb) => {
      void queries.invalidateQueries({ queryKey: ['knowledge-bases'] });
      navigate(`/knowledge/${kb._id}`);
    },
  });
  const error = create.error instanceof ApiError ? create.error : undefined;
  return (
    <>
      <PageHeader title="Knowledge bases" description="Documents your agents answer from: FAQs, price lists, policies, web pages." />
      <form
        className="card inline-form"
        aria-label="Create a knowledge base"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <TextField label="Name" required maxLength={200} placeholder="Front desk FAQ" error={error?.forField('name')} value={name} onChange={(e) => setName(e.target.value)} />
        <Button variant="primary" type="submit" busy={create.isPending}>
          Create knowledge base
        </Button>
        {create.error && !error?.forField('name') ? <ErrorNotice error={create.error} /> : null}
      </form>
      <QueryView query={list} what="knowledge bases">
        {(r) =>
          r.data.length === 0 ? (
            <Empty title="No knowledge base yet">
              <p>Create one, add documents, then name it on an agent (Knowledge bases, in the agent's settings or its API field knowledge_base_ids).</p>
            </Empty>
          ) : (
            <DataTable
              caption="Knowledge bases"
              rows={r.data}
              rowKey={(kb) => kb._id}
              columns={[
                { header: 'Name', cell: (kb) => <Link to={`/knowledge/${kb._id}`}>{kb.name}</Link> },
                { header: 'Id', cell: (kb) => <code>{kb._id}</code> },
                { header: 'Created', cell: (kb) => formatDate(kb.createdAt) },
              ]}
            />
          )
        }
      </QueryView>
    </>
  );
}

function AddDocuments({ kbId }: { kbId: string }) {
  const queries = useQueryClient();
  const file = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | undefined>();
  const [url, setUrl] = useState('');
  const [textName, setTextName] = useState('');
  const [text, setText] = useState('');
  const refresh = () => void queries.invalidateQueries({ queryKey: ['knowledge-base', kbId] });
  const upload = useMutation({
    mutationFn: () => {
      const chosen = file.current?.files?.[0];
      if (!chosen) throw new Error('Choose a file first.');
      const form = new FormData();
      form.set('workspaceId', currentWorkspaceId() ?? '');
      form.set('file', chosen);
      setProgress(0);
      return uploadWithProgress<KnowledgeDocument>(currentApiKey() ?? '', `/api/knowledge-bases/${encodeURIComponent(kbId)}/documents/upload`, form, setProgress);
    },
    onSuccess: () => {
      if (file.current) file.current.value = '';
      refresh();
    },
  });
  const add = useMutation({
    mutationFn: (body: { url: string } | { name: string; text: string }) => call((c) => c.POST('/api/knowledge-bases/{id}/documents', { params: { path: { id: kbId } }, body })),
    onSuccess: (_doc, body) => {
      if ('url' in body) setUrl('');
      else {
        setText('');
        setTextName('');
      }
      refresh();
    },
  });
  const addError = add.error instanceof ApiError ? add.error : undefined;
  return (
    <section className="card" aria-labelledby="add-documents">
      <h2 id="add-documents">Add documents</h2>
      <form
        className="inline-form"
        aria-label="Upload a document"
        onSubmit={(e) => {
          e.preventDefault();
          upload.mutate();
        }}
      >
        <div className="field">
          <label htmlFor="kb-file">File (TXT, Markdown, HTML, CSV or DOCX; at most 4 MiB)</label>
          <input id="kb-file" ref={file} type="file" required accept=".txt,.md,.markdown,.html,.htm,.csv,.docx,text/plain,text/markdown,text/html,text/csv,application/vnd.openxmlformats-officedocument.wordprocessingml.document" />
        </div>
        <Button variant="primary" type="submit" busy={upload.isPending}>
          Upload
        </Button>
        {upload.isPending && progress !== undefined ? <progress max={1} value={progress} aria-label="Upload progress" /> : null}
        <ErrorNotice error={upload.error} />
      </form>
      <form
        className="inline-form"
        aria-label="Add a web page"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate({ url });
        }}
      >
        <TextField label="Web page URL" type="url" required placeholder="https://example.com/faq" error={addError?.forField('url')} value={url} onChange={(e) => setUrl(e.target.value)} />
        <Button type="submit" busy={add.isPending && add.variables !== undefined && 'url' in add.variables}>
          Add page
        </Button>
      </form>
      <form
        aria-label="Add text"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate({ name: textName, text });
        }}
      >
        <TextField label="Text name" required maxLength={200} placeholder="Cancellation policy" value={textName} onChange={(e) => setTextName(e.target.value)} />
        <TextArea label="Text" required rows={4} maxLength={500_000} value={text} onChange={(e) => setText(e.target.value)} />
        <Button type="submit" busy={add.isPending && add.variables !== undefined && 'text' in add.variables}>
          Add text
        </Button>
      </form>
      {add.error && !addError?.forField('url') ? <ErrorNotice error={add.error} /> : null}
    </section>
  );
}

function Search({ kbId }: { kbId: string }) {
  const [query, setQuery] = useState('');
  const search = useMutation({ mutationFn: () => call((c) => c.POST('/api/knowledge-bases/{id}/query', { params: { path: { id: kbId } }, body: { query, k: 5 } })) });
  return (
    <section className="card" aria-labelledby="search-kb">
      <h2 id="search-kb">Search</h2>
      <form
        className="inline-form"
        aria-label="Search the knowledge base"
        onSubmit={(e) => {
          e.preventDefault();
          search.mutate();
        }}
      >
        <TextField label="Question" required maxLength={2_000} placeholder="Are you open on Saturday?" value={query} onChange={(e) => setQuery(e.target.value)} />
        <Button variant="primary" type="submit" busy={search.isPending}>
          Search
        </Button>
      </form>
      <ErrorNotice error={search.error} />
      {search.data ? (
        search.data.data.length === 0 ? (
          <Notice>Nothing found: no ready document matches.</Notice>
        ) : (
          <ol className="kb-hits" aria-label="Search results">
            {search.data.data.map((h: Hit) => (
              <li key={h.chunkId}>
                <p className="hint">
                  {h.documentName}
                  {h.section ? ` · ${h.section}` : ''}
                  {h.page !== undefined ? ` · page ${h.page}` : ''} · score {h.score.toFixed(3)}
                </p>
                <p>{h.text}</p>
              </li>
            ))}
          </ol>
        )
      ) : null}
    </section>
  );
}

export function KnowledgeBasePage() {
  const { id = '' } = useParams();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [removing, setRemoving] = useState<KnowledgeDocument | null>(null);
  const [deletingBase, setDeletingBase] = useState(false);
  const kb = useQuery({
    queryKey: ['knowledge-base', id],
    queryFn: () => call((c) => c.GET('/api/knowledge-bases/{id}', { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data?.documents.some((d) => d.status === 'processing') ? PROCESSING_REFRESH_MS : false),
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['knowledge-base', id] });
  const remove = useMutation({
    mutationFn: (docId: string) => call((c) => c.DELETE('/api/knowledge-bases/{id}/documents/{documentId}', { params: { path: { id, documentId: docId } } })),
    onSuccess: () => {
      setRemoving(null);
      refresh();
    },
  });
  const reindex = useMutation({
    mutationFn: (docId: string) => call((c) => c.POST('/api/knowledge-bases/{id}/documents/{documentId}/reindex', { params: { path: { id, documentId: docId } } })),
    onSuccess: refresh,
  });
  const removeBase = useMutation({
    mutationFn: () => call((c) => c.DELETE('/api/knowledge-bases/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['knowledge-bases'] });
      navigate('/knowledge');
    },
  });
  return (
    <QueryView query={kb} what="the knowledge base">
      {(base) => (
        <>
          <PageHeader
            title={base.name}
            description={<>Id <code>{base._id}</code>: name it in an agent's knowledge_base_ids.</>}
            actions={
              <Button variant="danger" onClick={() => setDeletingBase(true)}>
                Delete knowledge base
              </Button>
            }
          />
          <AddDocuments kbId={id} />
          {base.documents.length === 0 ? (
            <Empty title="No documents yet">
              <p>Upload a file, add a web page or paste text above.</p>
            </Empty>
          ) : (
            <DataTable
              caption="Documents"
              rows={base.documents}
              rowKey={(d) => d._id}
              columns={[
                { header: 'Name', className: 'clip', cell: (d) => d.name },
                { header: 'Format', cell: (d) => d.format },
                {
                  header: 'Status',
                  cell: (d) => (
                    <>
                      <span className={`badge badge-kb-${d.status}`}>{STATUS[d.status]}</span>
                      {d.status === 'failed' && d.error ? <span className="cell-note"> {d.error}</span> : null}
                    </>
                  ),
                },
                { header: 'Chunks', cell: (d) => (d.chunks === undefined ? '—' : d.chunks) },
                { header: 'Updated', cell: (d) => formatDate(d.updatedAt) },
                {
                  header: 'Actions',
                  hideHeader: true,
                  className: 'actions',
                  cell: (d) => (
                    <>
                      <Button onClick={() => reindex.mutate(d._id)} disabled={d.status === 'processing'} aria-label={`Re-index ${d.name}`}>
                        Re-index
                      </Button>
                      <Button variant="danger" onClick={() => setRemoving(d)} aria-label={`Delete ${d.name}`}>
                        Delete
                      </Button>
                    </>
                  ),
                },
              ]}
            />
          )}
          <ErrorNotice error={reindex.error} />
          <Search kbId={id} />
          <ConfirmDialog
            open={removing !== null}
            title="Delete this document?"
            confirm="Delete document"
            busy={remove.isPending}
            error={remove.error}
            body={<p>{removing?.name}, its text, chunks and vectors are deleted; agents stop answering from it.</p>}
            onConfirm={() => removing && remove.mutate(removing._id)}
            onClose={() => setRemoving(null)}
          />
          <ConfirmDialog
            open={deletingBase}
            title="Delete this knowledge base?"
            confirm="Delete knowledge base"
            busy={removeBase.isPending}
            error={removeBase.error}
            body={<p>Every document of {base.name}, with its text, chunks and vectors, is deleted.</p>}
            onConfirm={() => removeBase.mutate()}
            onClose={() => setDeletingBase(false)}
          />
        </>
      )}
    </QueryView>
  );
}
