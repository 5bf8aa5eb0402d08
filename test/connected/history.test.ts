/**
 * Invariant: call history lists newest first with every filter (agentType, agentId, startDate, endDate, search)
 * combined correctly, `total` counts the matches, list items omit transcript and recording, and records
 * of one workspace are invisible to another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRecord } from '../../lib/domain/history.js';
import { newId } from '../../lib/domain/ids.js';
import { putNewHistoryRecord } from '../../lib/store/history.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let ws: { workspaceId: string; apiKey: string };

function record(workspaceId: string, at: string, extra: Partial<HistoryRecord> = {}): HistoryRecord {
  const ms = Date.parse(at);
  return {
    _id: newId('call', ms),
    agentType: 'voice',
    fullName: 'Ada Lovelace',
    mobileNumber: '+14155552671',
    callDuration: 120,
    callEndReason: 'customer_hangup',
    callTranscript: 'agent: Hello!\nuser: Hi.',
    callSummary: 'Greeted.',
    callCost: 0.42,
    callRecordingUrl: 's3://voice-agents-recordings/rec.wav',
    workspace_id: workspaceId,
    createdAt: new Date(ms).toISOString(),
    ...extra,
  };
}

const ids = (res: { body: { data: { _id: string }[] } }) => res.body.data.map((r) => r._id);

let seeded: HistoryRecord[];

beforeAll(async () => {
  t = await startTestPlatform();
  ws = await t.workspace();
  seeded = [
    // The first record predates agentId on records: it matches no agent filter.
    record(ws.workspaceId, '2026-01-05T10:00:00Z'),
    record(ws.workspaceId, '2026-01-10T10:00:00Z', { agentType: 'video', agentId: 'agt_sales', fullName: 'Grace Hopper', mobileNumber: '+442071838750' }),
    record(ws.workspaceId, '2026-01-15T23:59:00Z', { agentType: 'chat', agentId: 'agt_support', fullName: 'Alan Turing' }),
    record(ws.workspaceId, '2026-02-01T00:00:00Z', { agentId: 'agt_sales', fullName: 'Grace Hopper' }),
    record(ws.workspaceId, '2026-02-20T12:00:00Z', { agentType: 'video', agentId: 'agt_sales' }),
  ];
  for (const r of seeded) await putNewHistoryRecord(t.deps.db, r);
});
afterAll(() => t?.stop());

describe('history', () => {
  it('lists newest first; list items omit transcript and recording', async () => {
    const res = await t.api(ws.apiKey, 'GET', `/api/history?workspaceId=${ws.workspaceId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 5, page: 1, limit: 10 });
    expect(ids(res)).toEqual(seeded.map((r) => r._id).reverse());
    expect(Object.keys(res.body.data[0]).sort()).toEqual(
      ['_id', 'agentType', 'agentId', 'fullName', 'mobileNumber', 'callDuration', 'callEndReason', 'callSummary', 'callCost', 'workspace_id', 'createdAt'].sort(),
    );
  });

  it('get returns transcript and recording address', async () => {
    const res = await t.api(ws.apiKey, 'GET', `/api/history/${seeded[0]!._id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(seeded[0]);
  });

  it('filters by agentType, dates and search, alone and combined', async () => {
    const q = async (query: string) => t.api(ws.apiKey, 'GET', `/api/history?${query}`);
    expect(ids(await q('agentType=video'))).toEqual([seeded[4]!._id, seeded[1]!._id]);
    expect((await q('agentType=video')).body.total).toBe(2);
    expect(ids(await q('startDate=2026-01-10T10:00:00Z&endDate=2026-01-31'))).toEqual([seeded[2]!._id, seeded[1]!._id]);
    expect(ids(await q('endDate=2026-01-15'))).toEqual([seeded[2]!._id, seeded[1]!._id, seeded[0]!._id]);
    expect(ids(await q('startDate=2026-02-01'))).toEqual([seeded[4]!._id, seeded[3]!._id]);
    expect(ids(await q('search=grace'))).toEqual([seeded[3]!._id, seeded[1]!._id]);
    expect(ids(await q('search=%2B44'))).toEqual([seeded[1]!._id]);
    expect(ids(await q('search=grace&agentType=voice'))).toEqual([seeded[3]!._id]);
    const paged = await q('agentType=voice&limit=1&page=2');
    expect(paged.body).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(ids(paged)).toEqual([seeded[0]!._id]);
  });

  it('filters by agentId, alone and with the other filters; old records without one match no agent', async () => {
    const q = async (query: string) => t.api(ws.apiKey, 'GET', `/api/history?${query}`);
    const sales = await q('agentId=agt_sales');
    expect(ids(sales)).toEqual([seeded[4]!._id, seeded[3]!._id, seeded[1]!._id]);
    expect(sales.body.total).toBe(3);
    expect(ids(await q('agentId=agt_support'))).toEqual([seeded[2]!._id]);
    expect(ids(await q('agentId=agt_sales&agentType=video'))).toEqual([seeded[4]!._id, seeded[1]!._id]);
    expect(ids(await q('agentId=agt_sales&startDate=2026-02-01&search=grace'))).toEqual([seeded[3]!._id]);
    expect((await q('agentId=agt_nobody')).body).toMatchObject({ data: [], total: 0 });
    const paged = await q('agentId=agt_sales&limit=2&page=2');
    expect(paged.body).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(ids(paged)).toEqual([seeded[1]!._id]);
    // Another workspace filtering by this one's agent finds nothing.
    const other = await t.workspace();
    expect((await t.api(other.apiKey, 'GET', '/api/history?agentId=agt_sales')).body).toMatchObject({ data: [], total: 0 });
  });

  it('rejects bad filter values with 400', async () => {
    for (const query of ['agentId=', 'agentID=agt_sales', 'agentType=phone', 'startDate=yesterday', 'endDate=2026-13-45', 'startDate=2026-03-01&endDate=2026-02-01']) {
      const res = await t.api(ws.apiKey, 'GET', `/api/history?${query}`);
      expect(res.status, query).toBe(400);
    }
  });

  it('another workspace sees none of it: 404 by id, empty list', async () => {
    const other = await t.workspace();
    expect((await t.api(other.apiKey, 'GET', `/api/history/${seeded[0]!._id}`)).status).toBe(404);
    expect((await t.api(other.apiKey, 'GET', '/api/history')).body).toMatchObject({ data: [], total: 0 });
    expect((await t.api(other.apiKey, 'DELETE', `/api/history/${seeded[0]!._id}`)).status).toBe(404);
  });

  it('delete removes a record and its count', async () => {
    const own = await t.workspace();
    const r = record(own.workspaceId, '2026-03-01T00:00:00Z');
    await putNewHistoryRecord(t.deps.db, r);
    expect((await t.api(own.apiKey, 'DELETE', `/api/history/${r._id}`)).status).toBe(204);
    expect((await t.api(own.apiKey, 'GET', '/api/history')).body.total).toBe(0);
  });
});
