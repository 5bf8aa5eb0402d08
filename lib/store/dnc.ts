import type { Page } from '../domain/common.js';
import type { DncEntry } from '../domain/dnc.js';
import { deleteCounted, getRecord, insertCounted, listCounted, type CollectionSpec } from './collection.js';
import type { Db, PageRequest } from './dynamo.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';

/**
 * The do-not-call list (`WS#<ws>/DNC#<e164>`), one item per number, counted like every collection. The
 * campaign scheduler's claim checks the item in the same transaction as the dial (lib/store/campaigns.ts).
 */

const DNC: CollectionSpec = { entity: 'dnc', label: 'Do-not-call entry', itemKey: key.dnc };

/** Adds a number; false when it was already on the list (the first entry, and its reason, stay). */
export async function addDncEntry(db: Db, entry: DncEntry): Promise<boolean> {
  const item = { ...key.dnc(entry.workspaceId, entry.phoneNumber), entity: ENTITY.dnc, v: TABLE_SCHEMA_VERSION, ...entry };
  const { failedIndex } = await insertCounted(db, DNC, entry.workspaceId, item);
  return failedIndex === undefined;
}

/** The entry of a number, or undefined. */
export const findDncEntry = (db: Db, ws: string, e164: string) => getRecord<DncEntry>(db, DNC, ws, e164);

/** A page of the list, newest number first by key (numbers sort as text). */
export const listDncEntries = (db: Db, ws: string, req: PageRequest): Promise<Page<DncEntry>> => listCounted<DncEntry>(db, DNC, ws, req);

/** Removes a number (404 when it is not on the list). */
export const removeDncEntry = (db: Db, ws: string, e164: string) => deleteCounted(db, DNC, ws, e164);
