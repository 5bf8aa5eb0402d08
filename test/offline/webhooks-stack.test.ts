/**
 * Invariant: webhook deliveries are wired as the delivery code assumes: a queue with dead letters whose
 * redrive and visibility match lib/store/queue.ts (the local queue uses the same settings), a consumer with
 * partial batch responses and a timeout below the visibility timeout, allowed to send to the queue (its
 * retries) and the dead letters (give-ups); every publisher (the streaming service, the consumers that end
 * calls, the routes that publish) may send to the queue and nothing else reaches the dead letters.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSUMER_TIMEOUT, SQS_VISIBILITY_PER_TIMEOUT } from '../../lib/infra/constructs/storage.js';
import { WEBHOOK_QUEUE_SETTINGS } from '../../lib/store/queue.js';
import { refId, synthPlatform, type Resource } from '../support/stack.js';

let resources: Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const fnOf = (entry: string) => {
  const found = ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties!.Description === entry);
  expect(found, entry).toHaveLength(1);
  return found[0]!;
};
/** Every (action, resource logical id) a role's policies grant. */
const grantsOf = (roleId: string | undefined) =>
  ofType('AWS::IAM::Policy')
    .filter(([, pol]) => [pol.Properties!.Roles].flat().some((r) => refId(r) === roleId))
    .flatMap(([, pol]) => pol.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
    .flatMap((s) => [s.Action].flat().flatMap((a) => [s.Resource].flat().map((r) => [a, refId(r)] as const)));

beforeAll(() => {
  ({ resources } = synthPlatform());
});

const queues = () => {
  const [queueId, queue] = ofType('AWS::SQS::Queue').find(([id]) => id.startsWith('WebhookDeliveries'))!;
  const [dlqId] = ofType('AWS::SQS::Queue').find(([id]) => id.startsWith('WebhookDeadLetters'))!;
  return { queueId, queue, dlqId };
};

describe('webhook queue', () => {
  it('has dead letters with the shared redrive and visibility settings', () => {
    const { queue, dlqId } = queues();
    // Six consumer timeouts (AWS's advice for Lambda consumers), never less than the local setting.
    expect(queue.Properties!.VisibilityTimeout).toBeGreaterThanOrEqual(Math.max(WEBHOOK_QUEUE_SETTINGS.visibilityTimeoutSeconds, CONSUMER_TIMEOUT.toSeconds() * SQS_VISIBILITY_PER_TIMEOUT));
    expect(queue.Properties!.RedrivePolicy.maxReceiveCount).toBe(WEBHOOK_QUEUE_SETTINGS.maxReceiveCount);
    expect(refId(queue.Properties!.RedrivePolicy.deadLetterTargetArn)).toBe(dlqId);
  });

  it('is consumed by functions/queue/webhooks.ts with partial batch responses, timing out before redelivery', () => {
    const { queueId, dlqId } = queues();
    const [id, fn] = fnOf('functions/queue/webhooks.ts');
    const mapping = ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => refId(m.Properties!.FunctionName) === id)![1].Properties!;
    expect(refId(mapping.EventSourceArn)).toBe(queueId);
    expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(fn.Properties!.Timeout).toBeLessThan(WEBHOOK_QUEUE_SETTINGS.visibilityTimeoutSeconds);
    const env = fn.Properties!.Environment.Variables as Record<string, unknown>;
    expect(refId(env.WEBHOOK_QUEUE_URL)).toBe(queueId);
    expect(refId(env.WEBHOOK_DLQ_URL)).toBe(dlqId);
    const grants = grantsOf(refId(fn.Properties!.Role));
    expect(grants).toContainEqual(['sqs:SendMessage', queueId]);
    expect(grants).toContainEqual(['sqs:SendMessage', dlqId]);
  });

  it('every publisher may send to the queue; only the consumer reaches the dead letters', () => {
    const { queueId, dlqId } = queues();
    for (const entry of [
      'functions/queue/dispatch.ts',
      'functions/schedule/abandoned-streams.ts',
      'functions/schedule/lost-callbacks.ts',
      'functions/twilio/status.ts',
      'functions/phone-numbers/delete.ts',
      'functions/contacts/upload.ts',
      'functions/calls/start.ts',
      'functions/webhooks/routes.ts',
    ]) {
      const [, fn] = fnOf(entry);
      expect(grantsOf(refId(fn.Properties!.Role)), entry).toContainEqual(['sqs:SendMessage', queueId]);
      expect(refId((fn.Properties!.Environment.Variables as Record<string, unknown>).WEBHOOK_QUEUE_URL), entry).toBe(queueId);
    }
    const dlqSenders = ofType('AWS::IAM::Policy').filter(([, pol]) =>
      (pol.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]).some(
        (s) => [s.Action].flat().includes('sqs:SendMessage') && [s.Resource].flat().some((r) => refId(r) === dlqId),
      ),
    );
    expect(dlqSenders).toHaveLength(1);
    // The streaming service's task role sends too.
    const taskEnv = ofType('AWS::ECS::TaskDefinition')[0]![1].Properties!.ContainerDefinitions[0].Environment as { Name: string; Value: unknown }[];
    expect(refId(taskEnv.find((e) => e.Name === 'WEBHOOK_QUEUE_URL')?.Value)).toBe(queueId);
  });
});
