/**
 * Invariant: the retry policy follows the Standard Webhooks schedule (about a day) with ±20 % jitter,
 * retries only timeouts, connection errors, 5xx and 429, honours a longer Retry-After (seconds or a date)
 * and stops when the schedule ends; a delivery due later than SQS can delay hops until it is due; signatures
 * are Standard Webhooks signatures that the reference package verifies, signed by the previous secret too
 * only until its overlap ends; an endpoint URL must be https unless its host is allow-listed for local
 * development; the analysis schema accepts the documented subset and a model answer is
 * either valid against it or recorded as a failure; each LLM adapter asks for its vendor's JSON-schema mode.
 */
import { Webhook } from 'standardwebhooks';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { AgentAnalysis, readAnalysis, schemaProblems } from '../../lib/domain/analysis.js';
import {
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  parseRetryAfter,
  retryDelayMs,
  SECRET_OVERLAP_MS,
  verdictOf,
  WebhookReplay,
  newWebhookSecret,
} from '../../lib/domain/webhook.js';
import { loadConfig } from '../../lib/config.js';
import { ValidationError } from '../../lib/domain/errors.js';
import { assertWebhookUrl } from '../../lib/domain/webhook-url.js';
import { deliverAttempt, signatureHeaders, type DeliveryDeps } from '../../lib/services/webhook-delivery.js';
import type { DeliveryMessage } from '../../lib/domain/webhook.js';
import { toAnthropicBody } from '../../lib/vendors/llm/anthropic.js';
import { toGeminiParams } from '../../lib/vendors/llm/google.js';
import { toOpenAiBody } from '../../lib/vendors/llm/openai.js';
import { sampleOf } from '../../lib/local/standins/llm-script.js';

describe('retry policy', () => {
  it('is the Standard Webhooks schedule, about 28 hours in all, and the config default', () => {
    const totalHours = DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0) / 3600;
    expect(totalHours).toBeGreaterThan(24);
    expect(totalHours).toBeLessThan(30);
    expect(loadConfig({}).WEBHOOK_RETRY_SCHEDULE).toEqual([...DEFAULT_RETRY_SCHEDULE_SECONDS]);
  });

  it('waits each step with ±20 % jitter and stops after the last', () => {
    const schedule = DEFAULT_RETRY_SCHEDULE_SECONDS;
    const low = () => 0;
    const high = () => 0.999_999;
    schedule.forEach((step, i) => {
      expect(retryDelayMs(i + 1, schedule, undefined, low)).toBe(step * 800);
      expect(retryDelayMs(i + 1, schedule, undefined, high)).toBe(Math.round(step * 1000 * (0.8 + 0.4 * 0.999_999)));
    });
    expect(retryDelayMs(schedule.length + 1, schedule, undefined, low)).toBeUndefined();
  });

  it('honours a Retry-After longer than the step, up to the longest step', () => {
    expect(retryDelayMs(1, [5], 60_000, () => 0.5)).toBe(60_000);
    expect(retryDelayMs(1, [5], 1_000, () => 0.5)).toBe(5_000);
    expect(retryDelayMs(1, [5], 100 * 3600_000, () => 0.5)).toBe(36_000_000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('retries timeouts, 5xx and 429; succeeds on 2xx; gives up on other answers and refusals', () => {
    expect([undefined, 500, 502, 503, 429].map((s) => verdictOf(s, false))).toEqual(Array(5).fill('retry'));
    expect([200, 201, 204].map((s) => verdictOf(s, false))).toEqual(Array(3).fill('succeeded'));
    expect([301, 302, 400, 401, 404, 410, 413].map((s) => verdictOf(s, false))).toEqual(Array(7).fill('give_up'));
    expect(verdictOf(undefined, true)).toBe('give_up');
  });

  it('sends a message due beyond SQS\'s 15-minute delay on, without attempting it', async () => {
    const sent: { message: DeliveryMessage; delay?: number }[] = [];
    const deps = { webhooks: { send: async (message: DeliveryMessage, delay?: number) => void sent.push({ message, delay }) } } as unknown as DeliveryDeps;
    const now = Date.parse('2026-01-01T00:00:00Z');
    const message: DeliveryMessage = { workspaceId: 'ws_1', endpointId: 'whe_1', deliveryId: 'dlv_1', eventId: 'evt_1', attempt: 5, notBefore: new Date(now + 5 * 3600_000).toISOString() };
    expect(await deliverAttempt(deps, message, { now: () => now, random: () => 0 })).toBe('deferred');
    expect(sent).toEqual([{ message, delay: 900 }]);
    sent.length = 0;
    expect(await deliverAttempt(deps, message, { now: () => now + 5 * 3600_000 - 300_000, random: () => 0 })).toBe('deferred');
    expect(sent[0]!.delay).toBe(300);
  });
});

describe('signatures', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'test.ping', createdAt: '2026-01-01T00:00:00.000Z', workspaceId: 'ws_1', data: {} });

  it('are Standard Webhooks signatures the reference package verifies', () => {
    const secret = newWebhookSecret();
    const now = Date.now();
    const headers = signatureHeaders({ secret }, 'evt_1', body, now);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    // Any change to the body breaks it.
    expect(() => new Webhook(secret).verify(body.replace('ping', 'pong'), headers)).toThrow();
  });

  it('carry the previous secret\'s signature only until its overlap ends', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const rotatedAt = Date.now();
    const endpoint = { secret: current, previousSecret: previous, previousSecretExpiresAt: new Date(rotatedAt + SECRET_OVERLAP_MS).toISOString() };
    const during = signatureHeaders(endpoint, 'evt_1', body, rotatedAt + SECRET_OVERLAP_MS - 1_000);
    expect(during['webhook-signature']!.split(' ')).toHaveLength(2);
    const after = signatureHeaders(endpoint, 'evt_1', body, rotatedAt + SECRET_OVERLAP_MS + 1_000);
    expect(after['webhook-signature']!.split(' ')).toHaveLength(1);
    // The reference package checks the timestamp against its own clock, so each is verified by HMAC here.
    const sign = (secret: string, at: number) => new Webhook(secret).sign('evt_1', new Date(at), body);
    expect(after['webhook-signature']).toBe(sign(current, rotatedAt + SECRET_OVERLAP_MS + 1_000));
    expect(during['webhook-signature']).toBe(`${sign(current, rotatedAt + SECRET_OVERLAP_MS - 1_000)} ${sign(previous, rotatedAt + SECRET_OVERLAP_MS - 1_000)}`);
  });
});

describe('endpoint URLs', () => {
  const field = (url: string, allowedHosts: string[] = []) => {
    try {
      assertWebhookUrl(url, { allowedHosts });
      return undefined;
    } catch (error) {
      return error instanceof ValidationError ? (error.details as { field: string; message: string }[])[0] : error;
    }
  };

  it('must be https: plain http is refused on url, except for a host on TOOL_ALLOWED_HOSTS (local development)', () => {
    expect(field('https://hooks.example.com/in')).toBeUndefined();
    expect(field('http://hooks.example.com/in')).toEqual({ field: 'url', message: expect.stringMatching(/https/) });
    expect(field('HTTP://hooks.example.com:8080/in')).toEqual({ field: 'url', message: expect.stringMatching(/https/) });
    // The exemption is the tools' one (lib/domain/ssrf.ts isAllowedHost): exact host, or host and port.
    expect(field('http://hooks.example.com/in', ['hooks.example.com'])).toBeUndefined();
    expect(field('http://127.0.0.1:4100/in', ['127.0.0.1:4100'])).toBeUndefined();
    expect(field('http://127.0.0.1:4101/in', ['127.0.0.1:4100'])).toEqual({ field: 'url', message: expect.any(String) });
  });
});

describe('replay body', () => {
  it('takes an event id or a range, not both and not neither', () => {
    expect(WebhookReplay.safeParse({ eventId: 'evt_1' }).success).toBe(true);
    expect(WebhookReplay.safeParse({ since: '2026-01-01T00:00:00Z' }).success).toBe(true);
    expect(WebhookReplay.safeParse({}).success).toBe(false);
    expect(WebhookReplay.safeParse({ eventId: 'evt_1', since: '2026-01-01T00:00:00Z' }).success).toBe(false);
    expect(WebhookReplay.safeParse({ until: '2026-01-01T00:00:00Z' }).success).toBe(false);
    expect(WebhookReplay.safeParse({ since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' }).success).toBe(false);
  });
});

const BOOKING = {
  successEvaluation: { rubric: 'An appointment was booked.', type: 'pass_fail' as const },
  structuredData: {
    schema: {
      type: 'object',
      properties: { appointment_booked: { type: 'boolean' }, callback_time: { type: 'string', description: 'ISO 8601' } },
      required: ['appointment_booked'],
    },
  },
};

describe('post-call analysis', () => {
  it('accepts an object schema within the subset and refuses the rest with the path of each problem', () => {
    expect(AgentAnalysis.safeParse(BOOKING).success).toBe(true);
    expect(schemaProblems({ type: 'string' })[0]!.message).toMatch(/top level is an object/);
    expect(schemaProblems({ type: 'object', properties: { a: { type: 'wat' } } })[0]!.path).toEqual(['properties', 'a', 'type']);
    expect(schemaProblems({ type: 'object', $ref: '#/x' })[0]!.path).toEqual(['$ref']);
    expect(schemaProblems({ type: 'object', properties: { 'bad name': { type: 'string' } } })[0]!.message).toMatch(/property name/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 6; i += 1) deep = { type: 'object', properties: { x: deep } };
    expect(schemaProblems(deep).some((p) => /nests at most/.test(p.message))).toBe(true);
  });

  it('refuses keyword values JSON Schema does not define, naming the keyword', () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ description: 3 }, 'description'],
      [{ format: ['date'] }, 'format'],
      [{ minimum: '1' }, 'minimum'],
      [{ maxItems: -1 }, 'maxItems'],
      [{ minItems: 1.5 }, 'minItems'],
      [{ enum: [] }, 'enum'],
      [{ enum: [{ a: 1 }] }, 'enum'],
      [{ enum: 'yes' }, 'enum'],
      [{ additionalProperties: 'no' }, 'additionalProperties'],
    ];
    for (const [extra, key] of bad) {
      expect(schemaProblems({ type: 'object', properties: { a: { type: 'string', ...extra } } }).map((p) => p.path), key).toContainEqual(['properties', 'a', key]);
    }
  });

  it('every schema it accepts is one the post-call validator can build (z.fromJSONSchema), over generated schemas', () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const values: unknown[] = ['x', '', 0, -2, 3.5, 7, true, false, null, [], ['a'], [1, 'b', null], [{}], {}, { type: 'string' }, -1, 1e3];
    const keys = ['description', 'title', 'format', 'minimum', 'maximum', 'minItems', 'maxItems', 'enum', 'additionalProperties'];
    const types = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];
    const node = (depth: number): Record<string, unknown> => {
      const type = types[next(types.length)]!;
      const n: Record<string, unknown> = { type };
      for (let i = next(3); i > 0; i -= 1) n[keys[next(keys.length)]!] = values[next(values.length)];
      if (type === 'object' && depth < 3) n.properties = { p: node(depth + 1), q: node(depth + 1) };
      if (type === 'array' && depth < 3) n.items = node(depth + 1);
      return n;
    };
    let accepted = 0;
    for (let i = 0; i < 6_000; i += 1) {
      const schema = { type: 'object', properties: { a: node(1), b: node(1) }, required: ['a'] };
      if (schemaProblems(schema).length > 0) continue;
      accepted += 1;
      expect(() => z.fromJSONSchema(schema as never), JSON.stringify(schema)).not.toThrow();
    }
    expect(accepted).toBeGreaterThan(300);
  });

  it('reads a valid answer; a score passes at the passing score', () => {
    const parsed = AgentAnalysis.parse(BOOKING);
    const at = '2026-01-01T00:00:00.000Z';
    expect(readAnalysis(parsed, '{"success":{"pass":true,"reason":"booked"},"data":{"appointment_booked":true,"callback_time":"2026-01-02T10:00:00Z"}}', at)).toEqual({
      status: 'completed',
      success: { pass: true, reason: 'booked' },
      data: { appointment_booked: true, callback_time: '2026-01-02T10:00:00Z' },
      analyzedAt: at,
    });
    const scored = AgentAnalysis.parse({ successEvaluation: { rubric: 'polite', type: 'score', passingScore: 7 } });
    expect(readAnalysis(scored, '{"success":{"score":7,"reason":"ok"}}', at).success).toEqual({ pass: true, score: 7, reason: 'ok' });
    expect(readAnalysis(scored, '{"success":{"score":6,"reason":"meh"}}', at).success).toEqual({ pass: false, score: 6, reason: 'meh' });
  });

  it('records an answer that is not JSON or does not match the schema as failed, with nothing guessed', () => {
    const parsed = AgentAnalysis.parse(BOOKING);
    const at = '2026-01-01T00:00:00.000Z';
    expect(readAnalysis(parsed, 'Sure! The appointment was booked.', at)).toEqual({ status: 'failed', error: 'the model did not answer with JSON', analyzedAt: at });
    const wrongType = readAnalysis(parsed, '{"success":{"pass":true,"reason":"x"},"data":{"appointment_booked":"yes"}}', at);
    expect(wrongType).toMatchObject({ status: 'failed', error: expect.stringContaining('data.appointment_booked') });
    expect(wrongType).not.toHaveProperty('data');
    expect(readAnalysis(parsed, '{"success":{"pass":true,"reason":"x"},"data":{}}', at).status).toBe('failed');
  });

  it('the stand-ins\' sample answer is valid against the schema it was asked for', () => {
    const parsed = AgentAnalysis.parse(BOOKING);
    const schema = { type: 'object', properties: { success: { type: 'object', properties: { pass: { type: 'boolean' }, reason: { type: 'string' } } }, data: BOOKING.structuredData.schema } };
    expect(readAnalysis(parsed, JSON.stringify(sampleOf(schema)), 'now').status).toBe('completed');
  });
});

describe('structured output on the wire', () => {
  const request = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }], responseFormat: { name: 'call_analysis', schema: { type: 'object' } } };
  it('OpenAI: response_format json_schema', () => {
    expect(toOpenAiBody(request).response_format).toEqual({ type: 'json_schema', json_schema: { name: 'call_analysis', schema: { type: 'object' }, strict: false } });
  });
  it('Anthropic: output_config.format json_schema', () => {
    expect(toAnthropicBody(request).output_config).toEqual({ format: { type: 'json_schema', schema: { type: 'object' } } });
  });
  it('Gemini: responseMimeType application/json with responseJsonSchema', () => {
    expect(toGeminiParams(request).config).toMatchObject({ responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } });
  });
  it('without a format, none of them asks for one', () => {
    const plain = { model: 'm', messages: request.messages };
    expect(toOpenAiBody(plain)).not.toHaveProperty('response_format');
    expect(toAnthropicBody(plain)).not.toHaveProperty('output_config');
    expect(toGeminiParams(plain).config).not.toHaveProperty('responseJsonSchema');
  });
});
