import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../api.js';
import { call, currentApiKey, currentWorkspaceId } from '../session.js';
import { uploadWithProgress } from '../upload.js';
import { ContactEditor } from './contact-edit.js';
import { Button, DataTable, Dialog, Empty, ErrorNotice, Notice, PageHeader, Pager, QueryView, TextField, useDebounced } from '../ui.js';

type ImportResult = Schemas['ContactImportResult'];
type Contact = Schemas['ContactListItem'];

function ImportReport({ result }: { result: ImportResult }) {
  return (
    <div className="import-report">
      <Notice kind={result.errors.length ? 'warning' : 'success'}>
        <strong>
          {result.imported} imported, {result.skipped} skipped.
        </strong>{' '}
        {result.errors.length ? 'The rows below were not imported; fix them in the file and upload it again (rows already imported are skipped, never duplicated).' : 'Every row was imported.'}
      </Notice>
      {result.errors.length > 0 ? (
        <DataTable
          caption="Rows not imported"
          scroll
          rows={result.errors}
          rowKey={(e) => `${e.row}:${e.column}`}
          columns={[
            { header: 'Row', cell: (e) => e.row },
            { header: 'Column', cell: (e) => e.column },
            { header: 'Value', cell: (e) => <code>{e.value}</code> },
            { header: 'Problem', cell: (e) => e.message },
          ]}
        />
      ) : null}
    </div>
  );
}

function UploadForm({ onClose }: { onClose: () => void }) {
  const queries = useQueryClient();
  const file = useRef<HTMLInputElement>(null);
  const [country, setCountry] = useState('US');
  const [progress, setProgress] = useState(0);
  const upload = useMutation({
    mutationFn: () => {
      const chosen = file.current?.files?.[0];
      if (!chosen) throw new Error('Choose a CSV or Excel file first.');
      const form = new FormData();
      form.set('workspaceId', currentWorkspaceId() ?? '');
      form.set('file', chosen);
      if (country.trim()) form.set('defaultCountry', country.trim().toUpperCase());
      setProgress(0);
      return uploadWithProgress<ImportResult>(currentApiKey() ?? '', '/api/contacts/upload', form, setProgress);
    },
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['contacts'] });
      void queries.invalidateQueries({ queryKey: ['contact-fields'] });
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        upload.mutate();
      }}
    >
      <p>
        A CSV (UTF-8, header row) or .xlsx file of at most 4 MiB with a <code>contactName</code> and a <code>phoneNumber</code> column. Every other column becomes a
        field you can use in prompts as <code>{'{{column}}'}</code>.
      </p>
      <div className="field">
        <label htmlFor="contact-file">File</label>
        <input id="contact-file" ref={file} type="file" required accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" />
      </div>
      <TextField label="Default country" maxLength={2} hint="For numbers written without +, as a two-letter code (US, GB, DE…)." value={country} onChange={(e) => setCountry(e.target.value)} />
      {upload.isPending ? (
        <div className="progress-wrap">
          <progress max={1} value={progress} aria-label="Upload progress" />
          <span>{progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : 'Importing rows…'}</span>
        </div>
      ) : null}
      <ErrorNotice error={upload.error} />
      {upload.data ? <ImportReport result={upload.data} /> : null}
      <div className="dialog-footer">
        <Button onClick={onClose}>Close</Button>
        <Button variant="primary" type="submit" busy={upload.isPending}>
          {upload.data ? 'Upload another file' : 'Upload'}
        </Button>
      </div>
    </form>
  );
}

export function ContactsPage() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<Contact | null>(null);
  const term = useDebounced(search.trim());
  const contacts = useQuery({
    queryKey: ['contacts', term, page],
    queryFn: () => call((c) => c.GET('/api/contacts', { params: { query: { search: term || undefined, page, limit: 20 } } })),
    placeholderData: (previous) => previous,
  });
  return (
    <>
      <PageHeader
        title="Contacts"
        description="The people your agents call. Their fields fill the {{variables}} in prompts."
        actions={
          <Button variant="primary" onClick={() => setUploading(true)}>
            Upload contacts
          </Button>
        }
      />
      <div className="toolbar" role="search">
        <TextField
          label="Search"
          type="search"
          placeholder="Name or phone number"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </div>
      <QueryView query={contacts} what="contacts">
        {(result) =>
          result.data.length === 0 ? (
            <Empty title={term ? `No contacts match “${term}”` : 'No contacts yet'}>{term ? null : <p>Upload a CSV or Excel file to add many at once.</p>}</Empty>
          ) : (
            <>
              <DataTable
                caption="Contacts"
                rows={result.data}
                rowKey={(c) => c._id}
                columns={[
                  {
                    header: 'Name',
                    cell: (c) => (
                      <button type="button" className="link" onClick={() => setEditing(c)} aria-label={`Edit ${c.contactName}`}>
                        {c.contactName}
                      </button>
                    ),
                  },
                  { header: 'Phone number', cell: (c) => <code>{c.phoneNumber}</code> },
                  { header: 'Region', cell: (c) => c.region },
                ]}
              />
              <Pager page={result.page} limit={result.limit} total={result.total} onPage={setPage} what="Contacts" />
            </>
          )
        }
      </QueryView>
      <Dialog open={uploading} title="Upload contacts" onClose={() => setUploading(false)}>
        <UploadForm onClose={() => setUploading(false)} />
      </Dialog>
      <Dialog open={editing !== null} title={`Edit ${editing?.contactName ?? 'contact'}`} onClose={() => setEditing(null)}>
        {editing ? <ContactEditor id={editing._id} onDone={() => setEditing(null)} /> : null}
      </Dialog>
    </>
  );
}
