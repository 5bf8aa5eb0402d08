import type { Db } from '../store/dynamo.js';
import { deleteHistoryRecord } from '../store/history.js';

/**
 * Call history as use cases. Reads with no rule in them (get, list) are the store's own, called by the
 * handlers directly; a change goes through here.
 */

/** Deletes the workspace's history record (404 if it has none by that id). */
export const removeHistoryRecord = (db: Db, ws: string, id: string): Promise<void> => deleteHistoryRecord(db, ws, id);
