import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, useSignedIn } from '../session.js';
import { Button, CopyButton, DataTable, Empty, ErrorNotice, Notice, PageHeader, QueryView, Select, TextField, formatDate } from '../ui.js';

function InviteForm() {
  const queries = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'member' | 'owner'>('member');
  const invite = useMutation({
    mutationFn: () => call((c) => c.POST('/api/invitations', { body: { email, role } })),
    onSuccess: () => {
      setEmail('');
      void queries.invalidateQueries({ queryKey: ['members'] });
    },
  });
  const made = invite.data?.invitation;
  return (
    <section className="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite someone</h2>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate();
        }}
      >
        <TextField label="Email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Select label="Role" value={role} onChange={(e) => setRole(e.target.value === 'owner' ? 'owner' : 'member')} options={[['member', 'Member'], ['owner', 'Owner']]} />
        <Button variant="primary" type="submit" busy={invite.isPending}>
          Send invitation
        </Button>
      </form>
      <p className="hint">Owners manage API keys and members; members use everything else.</p>
      <ErrorNotice error={invite.error} />
      {made ? (
        <Notice kind="success">
          <p>
            Invitation for <strong>{made.email}</strong> ({made.role}) created; it expires {formatDate(made.expiresAt)}. Send them this link:
          </p>
          <div className="secret-row">
            <code className="secret-value">{made.link}</code>
            <CopyButton text={made.link} label="Copy link" />
          </div>
        </Notice>
      ) : null}
    </section>
  );
}

export function MembersPage() {
  const session = useSignedIn();
  const members = useQuery({ queryKey: ['members'], queryFn: () => call((c) => c.GET('/api/members')) });
  const owner = session.workspace.role === 'owner';
  return (
    <>
      <PageHeader title="Members" description={`People who can sign in to ${session.workspace.name}.`} />
      {owner ? <InviteForm /> : <Notice>Only an owner can invite people.</Notice>}
      <QueryView query={members} what="members">
        {({ data }) =>
          data.length === 0 ? (
            <Empty title="No members" />
          ) : (
            <DataTable
              caption="Members"
              rows={data}
              rowKey={(m) => m.userId}
              columns={[
                { header: 'Email', cell: (m) => <>{m.email}{m.userId === session.user.id ? <span className="cell-note"> (you)</span> : null}</> },
                { header: 'Role', cell: (m) => <span className={`badge badge-${m.role}`}>{m.role === 'owner' ? 'Owner' : 'Member'}</span> },
                { header: 'Joined', cell: (m) => formatDate(m.joinedAt) },
              ]}
            />
          )
        }
      </QueryView>
    </>
  );
}
