import type { Deps } from '../deps.js';
import type { RecordingUrl } from '../domain/call.js';
import { NotFoundError } from '../domain/errors.js';
import { getHistoryRecord } from '../store/history.js';
import { parseS3Url } from '../store/recordings.js';

/** A presigned download is good for 15 minutes: enough to start a download, too short to share widely. */
export const RECORDING_URL_TTL_SECONDS = 15 * 60;

/**
 * A temporary download URL for a call's recording. 404 when the record is not the workspace's (exactly as
 * when it does not exist), when it has no recording, or when the object is gone.
 */
export async function recordingDownload(deps: Pick<Deps, 'db' | 'recordings'>, workspaceId: string, id: string): Promise<RecordingUrl> {
  const record = await getHistoryRecord(deps.db, workspaceId, id);
  const where = record.callRecordingUrl ? parseS3Url(record.callRecordingUrl) : undefined;
  // Only objects in our own bucket: a record naming another bucket would make us sign for it.
  if (!where || where.bucket !== deps.recordings.bucket || !(await deps.recordings.exists(where.key))) {
    throw new NotFoundError('Recording');
  }
  const nowMs = Date.now();
  const url = await deps.recordings.presignGet(where.key, RECORDING_URL_TTL_SECONDS);
  return { url, expiresAt: new Date(nowMs + RECORDING_URL_TTL_SECONDS * 1000).toISOString() };
}
