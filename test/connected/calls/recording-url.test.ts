/**
 * Invariant: a recording leaves the platform only through a presigned GET that works for 15 minutes, and
 * only for a record of the caller's own workspace: another workspace's record, a record without a
 * recording and a record whose object is gone are all 404, exactly like an unknown id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../lib/domain/ids.js';
import type { HistoryRecord } from '../../../lib/domain/history.js';
import { putNewHistoryRecord } from '../../../lib/store/history.js';
import { recordingKey } from '../../../lib/store/recordings.js';
import { startCallsPlatform, type CallsPlatform } from '../../support/calls.js';

let p: CallsPlatform;
beforeAll(async () => {
  p = await startCallsPlatform({ dispatchPoller: false });
});
afterAll(async () => p?.stop());

function record(ws: string, id: string, recordingUrl: string): HistoryRecord {
  return {
    _id: id, agentType: 'voice', fullName: 'R', mobileNumber: '+14155550100', callDuration: 3, callEndReason: 'customer_hangup',
    callTranscript: '', callSummary: '', callCost: 0.05, callRecordingUrl: recordingUrl, workspace_id: ws, createdAt: new Date().toISOString(),
  };
}

describe('GET /api/history/{id}/recording-url', () => {
  it('answers {url, expiresAt} whose URL downloads the object, valid 15 minutes', async () => {
    const ws = await p.workspace();
    const id = newId('call');
    const bytes = Buffer.from('RIFF....WAVEfmt fake recording bytes');
    const address = await p.deps.recordings.put(recordingKey(ws.workspaceId, id), bytes, 'audio/wav');
    await putNewHistoryRecord(p.deps.db, record(ws.workspaceId, id, address));
    const before = Date.now();
    const res = await p.api(ws.apiKey, 'GET', `/api/history/${id}/recording-url`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'url']);
    const expiresIn = Date.parse(res.body.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    expect(new URL(res.body.url).searchParams.get('X-Amz-Expires')).toBe('900');
    const download = await fetch(res.body.url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
  });

  it('404 for another workspace\'s record, a record without a recording, a missing object and an unknown id', async () => {
    const owner = await p.workspace();
    const stranger = await p.workspace();
    const id = newId('call');
    const address = await p.deps.recordings.put(recordingKey(owner.workspaceId, id), Buffer.from('x'), 'audio/wav');
    await putNewHistoryRecord(p.deps.db, record(owner.workspaceId, id, address));
    const foreign = await p.api(stranger.apiKey, 'GET', `/api/history/${id}/recording-url`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');

    const bare = newId('call');
    await putNewHistoryRecord(p.deps.db, record(owner.workspaceId, bare, ''));
    expect((await p.api(owner.apiKey, 'GET', `/api/history/${bare}/recording-url`)).status).toBe(404);

    const gone = newId('call');
    await putNewHistoryRecord(p.deps.db, record(owner.workspaceId, gone, `s3://${p.deps.recordings.bucket}/recordings/${owner.workspaceId}/${gone}.wav`));
    expect((await p.api(owner.apiKey, 'GET', `/api/history/${gone}/recording-url`)).status).toBe(404);

    const elsewhere = newId('call');
    await putNewHistoryRecord(p.deps.db, record(owner.workspaceId, elsewhere, 's3://someone-elses-bucket/secret.wav'));
    expect((await p.api(owner.apiKey, 'GET', `/api/history/${elsewhere}/recording-url`)).status).toBe(404);

    expect((await p.api(owner.apiKey, 'GET', `/api/history/${newId('call')}/recording-url`)).status).toBe(404);
  });
});
