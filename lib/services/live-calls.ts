import type { Page } from '../domain/common.js';
import { NotFoundError } from '../domain/errors.js';
import { callViewOf, liveCallOf, type CallView, type LiveCall, type LiveCallQuery } from '../domain/live-call.js';
import { listLiveCalls } from '../store/call-indexes.js';
import { findCall } from '../store/calls.js';
import type { PageRequest } from '../store/dynamo.js';
import { historyRecordExists } from '../store/history.js';
import type { Deps } from '../deps.js';
import { liveStateOf } from './live-call-control.js';

/** Calls as they run (docs/calls.md, "Following a call"): the workspace's live calls, and one call live or ended. */

/** A page of the workspace's calls that are not over, newest first. */
export async function listCallsInProgress(deps: Pick<Deps, 'db'>, ws: string, q: LiveCallQuery & PageRequest): Promise<Page<LiveCall>> {
  const page = await listLiveCalls(deps.db, ws, q);
  return { ...page, data: page.data.map(liveCallOf) };
}

/**
 * One of the workspace's calls, live or ended, with its history record's id once written and, while it is
 * connected, its task's live state (the transcript so far); 404 otherwise.
 */
export async function getCallView(deps: Pick<Deps, 'db' | 'config' | 'secrets'>, ws: string, callId: string): Promise<CallView> {
  const call = await findCall(deps.db, ws, callId);
  // A campaign's tombstone (a call that was never placed) is not a call.
  if (!call || (call as { tombstone?: boolean }).tombstone) throw new NotFoundError('Call');
  const [hasHistory, now] = await Promise.all([historyRecordExists(deps.db, ws, callId), liveStateOf(deps, call)]);
  return callViewOf(call, hasHistory, now);
}
