import type { Page } from '../domain/common.js';
import { NotFoundError } from '../domain/errors.js';
import { callViewOf, isCallLive, liveCallOf, type CallView, type LiveCall, type LiveCallQuery } from '../domain/live-call.js';
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
  const [first, hasHistory] = await Promise.all([findCall(deps.db, ws, callId), historyRecordExists(deps.db, ws, callId)]);
  // Every end settles the call before it writes the record, so a record found beside a live call may mean
  // the call was read before its end: read it again, or the view names a record while it says in progress.
  // (A meeting link's placeholder record is the one found beside a call still live.)
  const call = hasHistory && first && isCallLive(first) ? await findCall(deps.db, ws, callId) : first;
  // A campaign's tombstone (a call that was never placed) is not a call.
  if (!call || (call as { tombstone?: boolean }).tombstone) throw new NotFoundError('Call');
  return callViewOf(call, hasHistory, await liveStateOf(deps, call));
}
