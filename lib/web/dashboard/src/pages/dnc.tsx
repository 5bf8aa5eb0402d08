import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, formData, type Schemas } from '../api.js';
import { call, currentWorkspaceId } from '../session.js';
import { Button, ConfirmDialog, DataTable, Dialog, Empty, ErrorNotice, Notice, PageHeader, Pager, QueryView, TextField, formatDate } from '../ui.js';

/** The do-not-call list: numbers no campaign dials and a phone call refuses unless consented (docs/campaigns.md). */

type DncEntry = Schemas['DncEntry'];

const SOURCE: Record<DncEntry['source'], string> = { api: 'Added', upload: 'Uploaded', opt_out: 'Asked on a call' };

function AddNumber() {
  const queries = useQueryClient();
  const [phoneNumber, setPhoneNumber] = useState('');
  const [reason, setReason] = useState('');
  const add = useMutation({
    mutationFn: () => call((c) => c.POST('/api/do-not-call', { body: { phoneNumber, ...(reason.trim() ? { reason } : {}) } })),
    onSuccess: () => {
      setPhoneNumber('');
      setReason('');
      void queries.invalidateQueries({ queryKey: ['dnc'] });
    },
  });
  const error = add.error instanceof ApiError ? add.error : undefined;
  return (
    <form
      className="card inline-form"
      aria-label="Add a number"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <TextField label="Phone number" type="tel" required placeholder="+14155552671" error={error?.forField('phoneNumber')} value={phoneNumber} onChange={(e) => setPhoneNumber(e.target.value)} />
      <TextField label="Reason" maxLength={200} placeholder="Asked by email" value={reason} onChange={(e) => setReason(e.target.value)} />
      <Button variant="primary" type="submit" busy={add.isPending}>
        Add number
      </Button>
      {add.error && !error?.forField('phoneNumber') ? <ErrorNotice error={add.error} /> : null}
      {add.isSuccess ? (
        <span role="status" className="hint">
          Added {add.data.phoneNumber}.
        </span>
      ) : null}
    </form>
  );
}

function UploadList({ onClose }: { onClose: () => void }) {
  const queries = useQueryClient();
  const file = useRef<HTMLInputElement>(null);
  const [country, setCountry] = useState('US');
  const upload = useMutation({
    mutationFn: () => {
      const chosen = file.current?.files?.[0];
      if (!chosen) throw new Error('Choose a CSV file first.');
      const body = { file: chosen, workspaceId: currentWorkspaceId() ?? '', ...(country.trim() ? { defaultCountry: country.trim().toUpperCase() } : {}) };
      return call((c) => c.POST('/api/do-not-call/upload', { body, bodySerializer: formData }));
    },
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['dnc'] }),
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        upload.mutate();
      }}
    >
      <p>
        A CSV with a <code>phoneNumber</code> column, or one column of numbers; at most 10,000 rows.
      </p>
      <div className="field">
        <label htmlFor="dnc-file">File</label>
        <input id="dnc-file" ref={file} type="file" required accept=".csv,text/csv" />
      </div>
      <TextField label="Default country" maxLength={2} hint="For numbers written without +." value={country} onChange={(e) => setCountry(e.target.value)} />
      <ErrorNotice error={upload.error} />
      {upload.data ? (
        <div className="import-report">
          <Notice kind={upload.data.errors.length ? 'warning' : 'success'}>
            <strong>
              {upload.data.added} added, {upload.data.existing} already listed.
            </strong>
          </Notice>
          {upload.data.errors.length ? (
            <DataTable
              caption="Rows not added"
              scroll
              rows={upload.data.errors}
              rowKey={(e) => String(e.row)}
              columns={[
                { header: 'Row', cell: (e) => e.row },
                { header: 'Value', cell: (e) => <code>{e.value}</code> },
                { header: 'Problem', cell: (e) => e.message },
              ]}
            />
          ) : null}
        </div>
      ) : null}
      <div className="dialog-footer">
        <Button onClick={onClose}>Close</Button>
        <Button variant="primary" type="submit" busy={upload.isPending}>
          {upload.data ? 'Upload another file' : 'Upload'}
        </Button>
      </div>
    </form>
  );
}

export function DoNotCallPage() {
  const queries = useQueryClient();
  const [page, setPage] = useState(1);
  const [uploading, setUploading] = useState(false);
  const [removing, setRemoving] = useState<DncEntry | null>(null);
  const list = useQuery({ queryKey: ['dnc', page], queryFn: () => call((c) => c.GET('/api/do-not-call', { params: { query: { page, limit: 20 } } })), placeholderData: (p) => p });
  const remove = useMutation({
    mutationFn: (n: string) => call((c) => c.DELETE('/api/do-not-call/{number}', { params: { path: { number: n } } })),
    onSuccess: () => {
      setRemoving(null);
      void queries.invalidateQueries({ queryKey: ['dnc'] });
    },
  });
  return (
    <>
      <PageHeader
        title="Do not call"
        description="Numbers no campaign dials; a single call to one is refused unless the person agreed to it."
        actions={<Button onClick={() => setUploading(true)}>Upload a list</Button>}
      />
      <AddNumber />
      <QueryView query={list} what="the do-not-call list">
        {(r) =>
          r.data.length === 0 ? (
            <Empty title="Nobody on the list">
              <p>Numbers land here when you add them, or when a callee asks the agent not to be called again.</p>
            </Empty>
          ) : (
            <>
              <DataTable
                caption="Do-not-call list"
                rows={r.data}
                rowKey={(e) => e.phoneNumber}
                columns={[
                  { header: 'Number', cell: (e) => <code>{e.phoneNumber}</code> },
                  { header: 'Source', cell: (e) => SOURCE[e.source] ?? e.source },
                  { header: 'Reason', className: 'clip', cell: (e) => e.reason ?? '—' },
                  { header: 'Added', cell: (e) => formatDate(e.createdAt) },
                  {
                    header: 'Actions',
                    hideHeader: true,
                    className: 'actions',
                    cell: (e) => (
                      <Button variant="danger" onClick={() => setRemoving(e)} aria-label={`Remove ${e.phoneNumber}`}>
                        Remove
                      </Button>
                    ),
                  },
                ]}
              />
              <Pager page={r.page} limit={r.limit} total={r.total} onPage={setPage} what="Do-not-call list" />
            </>
          )
        }
      </QueryView>
      <Dialog open={uploading} title="Upload a do-not-call list" onClose={() => setUploading(false)}>
        <UploadList onClose={() => setUploading(false)} />
      </Dialog>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this number?"
        confirm="Remove number"
        busy={remove.isPending}
        error={remove.error}
        body={<p>Campaigns may call {removing?.phoneNumber} again.</p>}
        onConfirm={() => removing && remove.mutate(removing.phoneNumber)}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}
