import { useQuery } from '@tanstack/react-query';
import { ApiError, type Page } from './api.js';
import { api } from './session.js';

/**
 * Calls not yet over (`GET /api/calls`) and the pace at which pages that show something live refresh
 * themselves. A server without the route (older than it) answers 404: then nothing is shown as live.
 */

export interface LiveCall {
  readonly id: string;
  readonly agentId: string;
  readonly type: string;
  readonly direction: string;
  readonly state: 'initiated' | 'dialing' | 'ringing' | 'in-progress' | (string & {});
  readonly from: string;
  readonly to: string;
  readonly createdAt: string;
  readonly answeredAt?: string | null;
}

/** How often a page showing a live call or a running campaign asks again. */
export const LIVE_REFRESH_MS = 3_000;

/** Plain words for a live call's state. */
export const LIVE_STATES: Record<string, string> = {
  initiated: 'Starting',
  dialing: 'Dialing',
  ringing: 'Ringing',
  'in-progress': 'In progress',
};
export const liveState = (s: string) => LIVE_STATES[s] ?? s;

/** The live calls, or null when the server has no such route; refreshes itself while any is live. */
export function useLiveCalls() {
  return useQuery({
    queryKey: ['live-calls'],
    queryFn: async (): Promise<LiveCall[] | null> => {
      try {
        return (await api<Page<LiveCall>>('GET', '/api/calls?limit=100')).data;
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 405)) return null;
        throw error;
      }
    },
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && q.state.data.length > 0 ? LIVE_REFRESH_MS : false),
  });
}
