import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, authCall, ok, typedClient, type Answer, type Client, type DataOf, type paths, type Session } from './api.js';

/**
 * The signed-in session, in memory only (docs/dashboard.md, "Sessions"): the short-lived session key never
 * touches localStorage, where any script on the origin could read it; the long-lived refresh token is an
 * HttpOnly cookie no script can read. A reload restores the session with /auth/refresh; the key is renewed
 * a minute before it expires, and once more on any 401 (a key revoked or expired while the tab slept).
 */

type Status = 'restoring' | 'signed-in' | 'signed-out';

interface State {
  readonly status: Status;
  readonly session: Session | null;
}

let state: State = { status: 'restoring', session: null };
const listeners = new Set<() => void>();
const setState = (next: State) => {
  state = next;
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** One refresh at a time: parallel 401s share it. */
let refreshing: Promise<Session | null> | null = null;

function refresh(workspaceId?: string): Promise<Session | null> {
  if (refreshing && workspaceId === undefined) return refreshing;
  const run = authCall<Session>('refresh', workspaceId ? { workspaceId } : undefined)
    .then((session) => {
      setState({ status: 'signed-in', session });
      return session;
    })
    .catch((error: unknown) => {
      // A switch that failed keeps the current session; a failed renewal signs out.
      if (workspaceId !== undefined) throw error;
      setState({ status: 'signed-out', session: null });
      return null;
    })
    .finally(() => {
      if (refreshing === run) refreshing = null;
    });
  if (workspaceId === undefined) refreshing = run;
  return run;
}

/**
 * The typed REST API with the session's key: `call((c) => c.GET('/api/agents', { params: { query: { page } } }))`
 * answers the route's data as the OpenAPI document types it, or throws an {@link ApiError}; on a 401 the key
 * is renewed once and the request sent again.
 */
export async function call<A extends Answer>(request: (client: Client<paths>) => Promise<A>): Promise<DataOf<A>> {
  const session = state.session ?? (await refresh());
  if (!session) throw new ApiError(401, 'unauthorized', 'You are signed out. Sign in again.');
  try {
    return await ok(request(typedClient(session.apiKey)));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    const renewed = await refresh();
    if (!renewed) throw error;
    return ok(request(typedClient(renewed.apiKey)));
  }
}

/** The current session key, for the one call that cannot go through {@link call} (the upload with progress). */
export const currentApiKey = () => state.session?.apiKey;
/** The session's workspace, for the upload form (which requires its `workspaceId`). */
export const currentWorkspaceId = () => state.session?.workspace.id;

interface SessionApi {
  readonly status: Status;
  readonly session: Session | null;
  signIn(email: string, password: string): Promise<void>;
  adopt(session: Session): void;
  signOut(): Promise<void>;
  switchWorkspace(id: string): Promise<void>;
}

const Context = createContext<SessionApi | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const current = useSyncExternalStore(subscribe, () => state);
  const queries = useQueryClient();

  useEffect(() => {
    if (state.status === 'restoring') void refresh();
  }, []);

  // Renew a minute before expiry (at least 5 s from now, so a clock skew cannot make it spin).
  const expiresAt = current.session?.expiresAt;
  useEffect(() => {
    if (!expiresAt) return;
    const wait = Math.max(5_000, Date.parse(expiresAt) - Date.now() - 60_000);
    const timer = setTimeout(() => void refresh(), wait);
    return () => clearTimeout(timer);
  }, [expiresAt]);

  const adopt = useCallback((session: Session) => {
    queries.clear();
    setState({ status: 'signed-in', session });
  }, [queries]);

  const value = useMemo<SessionApi>(
    () => ({
      status: current.status,
      session: current.session,
      adopt,
      async signIn(email, password) {
        adopt(await authCall<Session>('sign-in', { email, password }));
      },
      async signOut() {
        // Signed out here even if the server cannot be reached: the key is dropped from memory.
        await authCall('sign-out').catch(() => undefined);
        queries.clear();
        setState({ status: 'signed-out', session: null });
      },
      async switchWorkspace(id) {
        const session = await refresh(id);
        if (session) queries.clear();
      },
    }),
    [current, adopt, queries],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useSession(): SessionApi {
  const value = useContext(Context);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in session (inside the signed-in shell only). */
export function useSignedIn(): Session {
  const { session } = useSession();
  if (!session) throw new Error('useSignedIn while signed out');
  return session;
}
