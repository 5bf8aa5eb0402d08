import { useQuery } from '@tanstack/react-query';
import type { Schemas } from './api.js';
import { call } from './session.js';

/**
 * Calls not yet over (`GET /api/calls`, docs/calls.md "Following a call") and the pace at which pages that
 * show something live refresh themselves.
 */

export type LiveCall = Schemas['LiveCall'];

/** How often a page showing a live call or a running campaign asks again. */
export const LIVE_REFRESH_MS = 3_000;

/** Plain words for a call's state (the live ones, and the terminal ones `GET /api/calls/{id}` may answer). */
export const LIVE_STATES: Record<LiveCall['state'], string> = {
  initiated: 'Starting',
  dialing: 'Dialing',
  ringing: 'Ringing',
  'in-progress': 'In progress',
  completed: 'Ended',
  busy: 'Busy',
  'no-answer': 'No answer',
  failed: 'Failed',
  canceled: 'Canceled',
};
export const liveState = (s: LiveCall['state']) => LIVE_STATES[s] ?? s;

/** The live calls (up to 100, newest first); refreshes itself while any is live. */
export function useLiveCalls() {
  return useQuery({
    queryKey: ['live-calls'],
    queryFn: async () => (await call((c) => c.GET('/api/calls', { params: { query: { limit: 100 } } }))).data,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && q.state.data.length > 0 ? LIVE_REFRESH_MS : false),
  });
}

/**
 * One call, live or ended (`GET /api/calls/{id}`): asked again while it has no history record yet (live,
 * or ended a moment ago and its record being written); `historyId` then names the record.
 */
export function useCall(id: string) {
  return useQuery({
    queryKey: ['live-call', id],
    queryFn: () => call((c) => c.GET('/api/calls/{id}', { params: { path: { id } } })),
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && q.state.data.historyId === null ? LIVE_REFRESH_MS : false),
  });
}
