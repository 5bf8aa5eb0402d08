import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { NavLink, Outlet, useNavigate } from 'react-router-dom';
import { authCall, type Session } from './api.js';
import { call, useSession, useSignedIn } from './session.js';
import { Button, Dialog, ErrorNotice, TextField } from './ui.js';

const NAV: readonly { to: string; label: string }[] = [
  { to: '/agents', label: 'Agents' },
  { to: '/tools', label: 'Tools' },
  { to: '/knowledge', label: 'Knowledge' },
  { to: '/contacts', label: 'Contacts' },
  { to: '/phone-numbers', label: 'Phone numbers' },
  { to: '/calls/new', label: 'Place a call' },
  { to: '/campaigns', label: 'Campaigns' },
  { to: '/agent-tests', label: 'Agent tests' },
  { to: '/live', label: 'Live' },
  { to: '/history', label: 'History' },
  { to: '/do-not-call', label: 'Do not call' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/credits', label: 'Credits' },
];
const SETTINGS: readonly { to: string; label: string }[] = [
  { to: '/settings/api-keys', label: 'API keys' },
  { to: '/settings/members', label: 'Members' },
];

function WorkspaceSwitcher() {
  const session = useSignedIn();
  const { switchWorkspace, adopt } = useSession();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const change = useMutation({
    mutationFn: (id: string) => switchWorkspace(id),
    onSuccess: () => navigate('/agents'),
  });
  const create = useMutation({
    mutationFn: async () => {
      const made = await call((c) => c.POST('/api/workspaces', { body: { name } }));
      // The new workspace joins the session's list; switching to it makes its key.
      adopt(await authCall<Session>('refresh', { workspaceId: made.workspace.id }));
    },
    onSuccess: () => {
      setCreating(false);
      setName('');
      navigate('/agents');
    },
  });
  return (
    <div className="switcher">
      <label htmlFor="workspace-switcher">Workspace</label>
      <select id="workspace-switcher" value={session.workspace.id} disabled={change.isPending} onChange={(e) => change.mutate(e.target.value)}>
        {session.workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} ({w.role})
          </option>
        ))}
      </select>
      <Button variant="ghost" className="switcher-new" onClick={() => setCreating(true)}>
        + New workspace
      </Button>
      <ErrorNotice error={change.error} />
      <Dialog
        open={creating}
        title="New workspace"
        onClose={() => setCreating(false)}
        footer={
          <>
            <Button onClick={() => setCreating(false)}>Cancel</Button>
            <Button variant="primary" type="submit" form="new-workspace" busy={create.isPending}>
              Create workspace
            </Button>
          </>
        }
      >
        <form
          id="new-workspace"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <p>A workspace has its own agents, contacts, numbers, keys and credits. You will be its owner.</p>
          <TextField label="Name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          <ErrorNotice error={create.error} />
        </form>
      </Dialog>
    </div>
  );
}

function NavList({ items, label, onNavigate }: { items: readonly { to: string; label: string }[]; label: string; onNavigate: () => void }) {
  return (
    <nav aria-label={label}>
      <ul className="nav-list">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} onClick={onNavigate}>
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The signed-in frame: a sidebar (a drawer on phones) with the workspace, the pages and the user. */
export function Shell() {
  const session = useSignedIn();
  const { signOut } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const close = () => setMenuOpen(false);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Voice agents</span>
        <Button variant="ghost" className="menu-toggle" aria-expanded={menuOpen} aria-controls="sidebar" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </Button>
      </header>
      <aside id="sidebar" className={`sidebar${menuOpen ? ' open' : ''}`}>
        <span className="brand brand-side">Voice agents</span>
        <WorkspaceSwitcher />
        <NavList items={NAV} label="Workspace" onNavigate={close} />
        <p className="nav-heading" id="settings-heading">
          Settings
        </p>
        <NavList items={SETTINGS} label="Settings" onNavigate={close} />
        <div className="user">
          <span className="user-email" title={session.user.email}>
            {session.user.email}
          </span>
          <Button variant="ghost" onClick={() => void signOut()}>
            Sign out
          </Button>
        </div>
      </aside>
      <main id="main" className="content" key={session.workspace.id} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
