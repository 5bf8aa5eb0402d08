/**
 * Invariant: the API's Lambda authorizer (functions/auth/authorizer.ts) admits exactly the keys the route
 * middleware admits: a current full key yields its workspace, key hash and key id (a session key also its
 * user and role); no key, an unknown key, a
 * revoked key and a widget key are refused, with no context. A route behind it takes the workspace from that
 * context and still counts the key's rate limit.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as authorize } from '../../functions/auth/authorizer.js';
import { handler as listAgents } from '../../functions/agents/list.js';
import { handler as dashboardRoutes } from '../../functions/dashboard/index.js';
import { createSessionKey } from '../../lib/store/users.js';
import { createApiKey, findApiKeyByHash, hashApiKey, revokeApiKey } from '../../lib/store/workspaces.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let a: { workspaceId: string; apiKey: string };

beforeAll(async () => {
  t = await startTestPlatform();
  a = await t.workspace();
});
afterAll(() => t?.stop());

const authorizerEvent = (headers: Record<string, string>): APIGatewayRequestAuthorizerEventV2 =>
  ({ version: '2.0', type: 'REQUEST', routeArn: 'arn:aws:execute-api:us-east-1:1:api/$default/GET/api/agents', identitySource: Object.values(headers), routeKey: 'GET /api/agents', rawPath: '/api/agents', rawQueryString: '', headers, requestContext: { requestId: randomUUID() } }) as unknown as APIGatewayRequestAuthorizerEventV2;

describe('API-key authorizer', () => {
  it('admits a current key with its workspace, key hash and key id, and nothing else in the context', async () => {
    const keyId = (await findApiKeyByHash(t.deps.db, hashApiKey(a.apiKey)))!.keyId;
    const out = await authorize(authorizerEvent({ 'x-api-key': a.apiKey }));
    expect(out).toEqual({ isAuthorized: true, context: { workspaceId: a.workspaceId, keyHash: hashApiKey(a.apiKey), keyId } });
  });

  it("admits a dashboard session key with its user and role, and notes no last use for it", async () => {
    const session = await createSessionKey(t.deps.db, { userId: 'user-1', workspaceId: a.workspaceId, role: 'member' });
    const out = await authorize(authorizerEvent({ 'x-api-key': session.apiKey }));
    expect(out).toMatchObject({ isAuthorized: true, context: { workspaceId: a.workspaceId, keyHash: hashApiKey(session.apiKey), userId: 'user-1', role: 'member' } });
    expect((await findApiKeyByHash(t.deps.db, hashApiKey(session.apiKey)))!.lastUsedAt).toBeUndefined();
  });

  it("notes a full key's last use, as the routes behind it do not read the key", async () => {
    const key = await createApiKey(t.deps.db, a.workspaceId, 'used');
    expect((await findApiKeyByHash(t.deps.db, hashApiKey(key.apiKey)))!.lastUsedAt).toBeUndefined();
    await authorize(authorizerEvent({ 'x-api-key': key.apiKey }));
    expect((await findApiKeyByHash(t.deps.db, hashApiKey(key.apiKey)))!.lastUsedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('refuses no key, an unknown key, an oversized key, a revoked key and a widget key, with an empty context', async () => {
    const revoked = await createApiKey(t.deps.db, a.workspaceId, 'gone');
    await revokeApiKey(t.deps.db, a.workspaceId, revoked.keyId);
    const agent = (await t.api(a.apiKey, 'POST', '/api/agents', { name: 'W', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'cartesia', stt_provider: 'deepgram' })).body;
    const widget = await createApiKey(t.deps.db, a.workspaceId, 'site', { agentIds: [agent._id], origins: ['https://shop.example.com'] });
    for (const headers of [{} as Record<string, string>, { 'x-api-key': 'sk_unknown' }, { 'x-api-key': 'k'.repeat(5_000) }, { 'x-api-key': revoked.apiKey }, { 'x-api-key': widget.apiKey }]) {
      expect(await authorize(authorizerEvent(headers))).toEqual({ isAuthorized: false, context: {} });
    }
  });
});

describe('a route behind the authorizer', () => {
  const routeEvent = (context: Record<string, string>, path = '/api/agents'): APIGatewayProxyEventV2 => {
    const now = Date.now();
    return {
      version: '2.0', routeKey: `GET ${path}`, rawPath: path, rawQueryString: '', headers: { host: 'localhost' }, isBase64Encoded: false,
      requestContext: {
        accountId: 'local', apiId: 'local', domainName: 'localhost', domainPrefix: 'local', requestId: randomUUID(), routeKey: `GET ${path}`, stage: '$default', time: new Date(now).toUTCString(), timeEpoch: now,
        http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
        authorizer: { lambda: context },
      },
    } as unknown as APIGatewayProxyEventV2;
  };
  const lambdaContext = { awsRequestId: 'test', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

  it('takes the workspace from the authorizer context and counts the key (no x-api-key header needed)', async () => {
    const res = await listAgents(routeEvent({ workspaceId: a.workspaceId, keyHash: hashApiKey(a.apiKey), keyId: 'key_1' }), lambdaContext);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body!).data.every((agent: { workspaceId?: string }) => agent.workspaceId === undefined || agent.workspaceId === a.workspaceId)).toBe(true);
    expect(res.headers?.ratelimit).toMatch(/^"key";r=\d+;t=\d+$/);
  });

  it("takes a session key's user from the context: an owner lists the keys, a member and a plain key are refused", async () => {
    const context = { workspaceId: a.workspaceId, keyHash: hashApiKey('vas_x'), keyId: 'key_2' };
    const owner = await dashboardRoutes(routeEvent({ ...context, userId: 'user-1', role: 'owner' }, '/api/keys'), lambdaContext);
    expect(owner.statusCode).toBe(200);
    const member = await dashboardRoutes(routeEvent({ ...context, userId: 'user-2', role: 'member' }, '/api/keys'), lambdaContext);
    expect([member.statusCode, JSON.parse(member.body!).error.code]).toEqual([403, 'owner_required']);
    const plain = await dashboardRoutes(routeEvent(context, '/api/keys'), lambdaContext);
    expect([plain.statusCode, JSON.parse(plain.body!).error.code]).toEqual([403, 'user_session_required']);
  });

  it('without an authorizer context (the local server) still demands the key', async () => {
    const res = await listAgents(routeEvent({}), lambdaContext);
    expect(res.statusCode).toBe(401);
  });
});
