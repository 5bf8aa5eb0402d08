/**
 * Invariant: the campaign scheduler is deployed as docs/campaigns.md describes: one Lambda running
 * functions/schedule/campaigns.ts, fired by an EventBridge rule every minute (only EventBridge may invoke
 * it), whose timeout covers its 55-second loop of ticks and stays below the next run's start plus a margin;
 * it may send to the dispatch queue (and the webhook queue, for low-credit alerts), never consume it, and
 * reads the Twilio secret not at all (the dispatch consumer places the calls).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { RUN_MS } from '../../functions/schedule/campaigns.js';
import { refId, synthPlatform, type Resource } from '../support/stack.js';

let resources: Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

beforeAll(() => {
  ({ resources } = synthPlatform());
});

const scheduler = () => {
  const found = ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties!.Description === 'functions/schedule/campaigns.ts');
  expect(found).toHaveLength(1);
  return found[0]!;
};

const statementsOf = (fnId: string) => {
  const roleId = refId(resources[fnId]!.Properties!.Role);
  return ofType('AWS::IAM::Policy')
    .filter(([, pol]) => [pol.Properties!.Roles].flat().some((r) => refId(r) === roleId))
    .flatMap(([, pol]) => pol.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
};

describe('campaign scheduler', () => {
  it('runs every minute on an EventBridge rule, invoked only by EventBridge, and outlasts its loop', () => {
    const [id, fn] = scheduler();
    const rules = ofType('AWS::Events::Rule').filter(([, r]) => (r.Properties!.Targets as { Arn: unknown }[]).some((t) => refId(t.Arn) === id));
    expect(rules).toHaveLength(1);
    expect(rules[0]![1].Properties!.ScheduleExpression).toBe('rate(1 minute)');
    const invoke = ofType('AWS::Lambda::Permission').filter(([, perm]) => refId(perm.Properties!.FunctionName) === id);
    expect(invoke.map(([, perm]) => perm.Properties!.Principal)).toEqual(['events.amazonaws.com']);
    expect(fn.Properties!.Timeout * 1000).toBeGreaterThan(RUN_MS);
    expect(RUN_MS).toBeLessThan(60_000);
  });

  it('sends to the dispatch queue, consumes nothing, and has the table but not the Twilio secret', () => {
    const [id, fn] = scheduler();
    const env = fn.Properties!.Environment.Variables as Record<string, unknown>;
    expect(env.TABLE_NAME).toBeDefined();
    expect(env.DISPATCH_QUEUE_URL).toBeDefined();
    expect(env.TWILIO_SECRET_ARN).toBeUndefined();
    const statements = statementsOf(id);
    const actions = statements.flatMap((st) => [st.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(['sqs:SendMessage', 'dynamodb:UpdateItem', 'dynamodb:Query']));
    expect(actions).not.toContain('sqs:ReceiveMessage');
    expect(actions.some((a) => a.startsWith('secretsmanager:') && statements.some((st) => JSON.stringify(st.Resource).includes('Twilio')))).toBe(false);
    const sends = statements.filter((st) => [st.Action].flat().includes('sqs:SendMessage')).flatMap((st) => [st.Resource].flat().map((r) => refId(r)));
    expect(sends.some((q) => q?.startsWith('CallDispatch'))).toBe(true);
  });
});
