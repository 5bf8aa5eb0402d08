/**
 * Invariant: the call-dispatch consumer is wired as the dispatcher's at-least-once logic assumes: an SQS
 * event source on the dispatch queue with partial batch responses, a timeout below the queue's visibility
 * timeout (no redelivery while a receive is still dialing), the same maxReceiveCount as the queue's
 * redrive policy, and exactly the table, Twilio secret and data key it uses. Expiring items (idempotency
 * keys, meeting tokens) have the table's TTL attribute. The sweep of abandoned streams runs on a schedule
 * with only what settling a call takes: Query on the live-stream index (never Scan), item reads and writes
 * on workspace items, no deletes, no secrets beyond the data key every function gets.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DISPATCH_QUEUE } from '../../lib/infra/constructs/storage.js';
import { loadConfig } from '../../lib/config.js';
import { GSI1, TABLE } from '../../lib/store/model.js';
import { LOST_CALLBACK_AFTER_MS, STREAM_ABANDONED_AFTER_MS, STREAM_SWEEP_EVERY_MS } from '../../lib/domain/call.js';
import { refId, synthPlatform, type Resource } from '../support/stack.js';


let resources: Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

beforeAll(() => {
  ({ resources } = synthPlatform());
});

const consumer = () => {
  const found = ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties!.Description === 'functions/queue/dispatch.ts');
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('dispatch consumer', () => {
  it('consumes the dispatch queue with partial batch responses', () => {
    const [id] = consumer();
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => refId(m.Properties!.FunctionName) === id);
    expect(mappings).toHaveLength(1);
    const m = mappings[0]![1].Properties!;
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(m.BatchSize).toBe(10);
    const queue = ofType('AWS::SQS::Queue').find(([qid]) => qid === refId(m.EventSourceArn));
    expect(queue?.[1].Properties!.RedrivePolicy.maxReceiveCount).toBe(DISPATCH_QUEUE.maxReceiveCount);
  });

  it('times out before the queue would redeliver, and knows the redrive limit', () => {
    const [, fn] = consumer();
    expect(fn.Properties!.Timeout).toBeLessThan(DISPATCH_QUEUE.visibilityTimeout.toSeconds());
    const env = fn.Properties!.Environment.Variables as Record<string, unknown>;
    expect(env.DISPATCH_MAX_RECEIVE_COUNT).toBe(String(DISPATCH_QUEUE.maxReceiveCount));
    expect(loadConfig({}).DISPATCH_MAX_RECEIVE_COUNT).toBe(DISPATCH_QUEUE.maxReceiveCount);
    expect(env.TABLE_NAME).toBeDefined();
    expect(env.TWILIO_SECRET_ARN).toBeDefined();
    expect(env.SECRET_KEY_ARN).toBeDefined();
    expect(env.PUBLIC_BASE_URL).toBeDefined();
  });

  it('may write the table and read the Twilio secret, and may not send to the queue', () => {
    const [, fn] = consumer();
    const roleId = refId(fn.Properties!.Role);
    const actions = ofType('AWS::IAM::Policy')
      .filter(([, pol]) => [pol.Properties!.Roles].flat().some((r) => refId(r) === roleId))
      .flatMap(([, pol]) => (pol.Properties!.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((s) => [s.Action].flat()));
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', 'dynamodb:PutItem', 'secretsmanager:GetSecretValue', 'sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    // It sends only to the webhook queue (a call that cannot be placed announces call.ended), never to its own.
    const sends = ofType('AWS::IAM::Policy')
      .filter(([, pol]) => [pol.Properties!.Roles].flat().some((r) => refId(r) === roleId))
      .flatMap(([, pol]) => pol.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((st) => [st.Action].flat().includes('sqs:SendMessage'))
      .flatMap((st) => [st.Resource].flat().map((r) => refId(r)));
    expect(sends.every((q) => q?.startsWith('WebhookDeliveries'))).toBe(true);
    expect(sends.length).toBeGreaterThan(0);
  });
});

describe('table', () => {
  it('expires items by the model\'s TTL attribute', () => {
    const [[, table]] = ofType('AWS::DynamoDB::GlobalTable') as [[string, Resource]];
    expect(TABLE.ttlAttribute).toBe('ttl');
    expect(table.Properties!.TimeToLiveSpecification).toEqual({ AttributeName: 'ttl', Enabled: true });
  });
});

describe('sweep of abandoned streams', () => {
  const sweeper = () => {
    const found = ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties!.Description === 'functions/schedule/abandoned-streams.ts');
    expect(found).toHaveLength(1);
    return found[0]!;
  };
  const statements = (fnId: string) => {
    const roleId = refId(resources[fnId]!.Properties!.Role);
    return ofType('AWS::IAM::Policy')
      .filter(([, pol]) => [pol.Properties!.Roles].flat().some((r) => refId(r) === roleId))
      .flatMap(([, pol]) => pol.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown; Condition?: unknown }[]);
  };

  it('runs on an EventBridge rate, more often than the grace a stream is given', () => {
    const [id] = sweeper();
    const rules = ofType('AWS::Events::Rule').filter(([, r]) => (r.Properties!.Targets as { Arn: unknown }[]).some((t) => refId(t.Arn) === id));
    expect(rules).toHaveLength(1);
    const rule = rules[0]![1].Properties!;
    expect(rule.ScheduleExpression).toBe(`rate(${STREAM_SWEEP_EVERY_MS / 60_000} minutes)`);
    expect(rule.State ?? 'ENABLED').toBe('ENABLED');
    expect(STREAM_SWEEP_EVERY_MS).toBeLessThanOrEqual(2 * STREAM_ABANDONED_AFTER_MS);
    const invoke = ofType('AWS::Lambda::Permission').filter(([, perm]) => refId(perm.Properties!.FunctionName) === id);
    expect(invoke.map(([, perm]) => perm.Properties!.Principal)).toEqual(['events.amazonaws.com']);
  });

  it('may query the live-stream index and workspace partitions, and read and write workspace items; no scan, no delete, no Twilio secret', () => {
    const [id, fn] = sweeper();
    const env = fn.Properties!.Environment.Variables as Record<string, unknown>;
    expect(env.TABLE_NAME).toBeDefined();
    expect(env.TWILIO_SECRET_ARN).toBeUndefined();
    const dynamo = statements(id).filter((st) => [st.Action].flat().some((a) => a.startsWith('dynamodb:')));
    const actions = dynamo.flatMap((st) => [st.Action].flat());
    // Query twice: the live-stream index, and workspace partitions (the webhook endpoints a call.ended goes to).
    expect([...actions].sort()).toEqual(['dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    const queries = dynamo.filter((st) => [st.Action].flat().includes('dynamodb:Query'));
    expect(queries.some((st) => JSON.stringify(st.Resource).includes(`/index/${GSI1}`))).toBe(true);
    for (const st of queries.filter((q) => !JSON.stringify(q.Resource).includes('/index/'))) {
      expect(st.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WS#*'] } });
    }
    const items = dynamo.find((st) => [st.Action].flat().includes('dynamodb:UpdateItem'))!;
    expect(items.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WS#*'] } });
    expect(JSON.stringify(items.Resource)).not.toContain('/index/');
  });
});

describe('reconciliation of lost status callbacks', () => {
  const reconciler = () => {
    const found = ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties!.Description === 'functions/schedule/lost-callbacks.ts');
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('runs on an EventBridge rate, more often than a call is left quiet before Twilio is asked', () => {
    const [id] = reconciler();
    const rules = ofType('AWS::Events::Rule').filter(([, r]) => (r.Properties!.Targets as { Arn: unknown }[]).some((t) => refId(t.Arn) === id));
    expect(rules).toHaveLength(1);
    expect(rules[0]![1].Properties!.ScheduleExpression).toBe(`rate(${STREAM_SWEEP_EVERY_MS / 60_000} minutes)`);
    expect(STREAM_SWEEP_EVERY_MS).toBeLessThan(LOST_CALLBACK_AFTER_MS);
  });

  it('may read the Twilio secret (it asks Twilio) and query the index, never scan', () => {
    const [id, fn] = reconciler();
    expect((fn.Properties!.Environment.Variables as Record<string, unknown>).TWILIO_SECRET_ARN).toBeDefined();
    const roleId = refId(resources[id]!.Properties!.Role);
    const actions = ofType('AWS::IAM::Policy')
      .filter(([, pol]) => [pol.Properties!.Roles].flat().some((r) => refId(r) === roleId))
      .flatMap(([, pol]) => (pol.Properties!.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((st) => [st.Action].flat()));
    expect(actions).toContain('dynamodb:Query');
    expect(actions).not.toContain('dynamodb:Scan');
  });
});
