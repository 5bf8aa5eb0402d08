import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, type Schemas } from '../api.js';
import { call } from '../session.js';
import { Button, ErrorNotice, QueryView, TextField } from '../ui.js';

/**
 * Editing a contact: PATCH /api/contacts/{id}, a JSON merge patch. Only the fields that changed are sent; a
 * field removed is sent as null (the API deletes it), and an empty region asks the API to derive it again.
 */

type ContactDetail = Schemas['Contact'];
type ContactPatch = Schemas['ContactUpdate'];
type FieldValue = ContactDetail['externalFields'][string];

interface FieldRow {
  key: string;
  value: string;
  /** The key this row had when loaded, if any. */
  original?: string;
}

function patchOf(c: ContactDetail, name: string, phone: string, region: string, rows: readonly FieldRow[]): ContactPatch {
  const patch: ContactPatch = {};
  if (name !== c.contactName) patch.contactName = name;
  if (phone !== c.phoneNumber) patch.phoneNumber = phone;
  if (region !== c.region) patch.region = region.trim() ? region.trim().toUpperCase() : null;
  const fields: Record<string, FieldValue | null> = {};
  const kept = new Set(rows.map((r) => r.key.trim()).filter(Boolean));
  for (const key of Object.keys(c.externalFields)) if (!kept.has(key)) fields[key] = null;
  for (const r of rows) {
    const key = r.key.trim();
    if (!key) continue;
    const before = c.externalFields[key];
    // An unchanged value keeps its type (a number stays a number).
    if (before !== undefined && String(before) === r.value) continue;
    fields[key] = r.value;
  }
  if (Object.keys(fields).length) patch.externalFields = fields;
  return patch;
}

function EditForm({ contact, onDone }: { contact: ContactDetail; onDone: () => void }) {
  const queries = useQueryClient();
  const [name, setName] = useState(contact.contactName);
  const [phone, setPhone] = useState(contact.phoneNumber);
  const [region, setRegion] = useState(contact.region);
  const [rows, setRows] = useState<FieldRow[]>(Object.entries(contact.externalFields).map(([key, v]) => ({ key, value: String(v), original: key })));
  const save = useMutation({
    mutationFn: () => call((c) => c.PATCH('/api/contacts/{id}', { params: { path: { id: contact._id } }, body: patchOf(contact, name, phone, region, rows) })),
    onSuccess: (next) => {
      queries.setQueryData(['contact', contact._id], next);
      void queries.invalidateQueries({ queryKey: ['contacts'] });
      void queries.invalidateQueries({ queryKey: ['contact-fields'] });
      onDone();
    },
  });
  const error = save.error instanceof ApiError ? save.error : undefined;
  const update = (i: number, patch: Partial<FieldRow>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <TextField label="Name" required maxLength={200} autoFocus error={error?.forField('contactName')} value={name} onChange={(e) => setName(e.target.value)} />
      <div className="grid-2">
        <TextField label="Phone number" type="tel" required error={error?.forField('phoneNumber')} value={phone} onChange={(e) => setPhone(e.target.value)} />
        <TextField label="Region" maxLength={2} hint="Empty: taken from the number." error={error?.forField('region')} value={region} onChange={(e) => setRegion(e.target.value)} />
      </div>
      <fieldset className="choices">
        <legend>Fields</legend>
        <p className="hint">
          Used in prompts as <code>{'{{field}}'}</code>.
        </p>
        {rows.map((row, i) => (
          <div className="header-row" key={i}>
            <TextField label={`Field ${i + 1} name`} value={row.key} readOnly={row.original !== undefined} onChange={(e) => update(i, { key: e.target.value })} />
            <TextField label={`Field ${i + 1} value`} value={row.value} error={error?.forField(`externalFields.${row.key}`)} onChange={(e) => update(i, { value: e.target.value })} />
            <Button variant="ghost" aria-label={`Remove field ${row.key || i + 1}`} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
              Remove
            </Button>
          </div>
        ))}
        <Button variant="ghost" onClick={() => setRows([...rows, { key: '', value: '' }])}>
          + Add field
        </Button>
      </fieldset>
      <ErrorNotice error={save.error} />
      <div className="dialog-footer">
        <Button onClick={onDone}>Cancel</Button>
        <Button variant="primary" type="submit" busy={save.isPending}>
          Save contact
        </Button>
      </div>
    </form>
  );
}

export function ContactEditor({ id, onDone }: { id: string; onDone: () => void }) {
  const contact = useQuery({ queryKey: ['contact', id], queryFn: () => call((c) => c.GET('/api/contacts/{id}', { params: { path: { id } } })), staleTime: 0 });
  return <QueryView query={contact} what="the contact">{(c) => <EditForm contact={c} onDone={onDone} />}</QueryView>;
}
