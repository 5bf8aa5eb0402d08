import { MAX_CALL_EVENTS, type CallEventsView } from '../domain/call-timeline.js';
import { NotFoundError } from '../domain/errors.js';
import type { Db } from '../store/dynamo.js';
import { deleteHistoryRecord, findCallTimeline, historyRecordExists } from '../store/history.js';

/**
 * Call history as use cases. Reads with no rule in them (get, list) are the store's own, called by the
 * handlers directly; a change, or a read that checks ownership first, goes through here.
 */

/** Deletes the workspace's history record and its timeline (404 if it has none by that id). */
export const removeHistoryRecord = (db: Db, ws: string, id: string): Promise<void> => deleteHistoryRecord(db, ws, id);

/**
 * A call's event timeline: 404 unless the workspace has a record by that id (another workspace's reads as
 * unknown); no events when the call kept none (it never connected, or it ended before timelines were kept).
 */
export async function callTimeline(db: Db, ws: string, id: string): Promise<CallEventsView> {
  if (!(await historyRecordExists(db, ws, id))) throw new NotFoundError('History record');
  const stored = await findCallTimeline(db, ws, id);
  return { callId: id, data: [...(stored?.data ?? [])], truncated: stored?.truncated ?? false, limit: MAX_CALL_EVENTS };
}
