/**
 * Invariant: the deployed platform can run and be operated. The vendor keys reach the streaming task, and
 * nothing else; every alarm the runbook names exists and notifies the one topic (mailed when asked); the
 * dashboard exists; every keyed route sits behind the cached API-key authorizer and every route under a
 * stage throttle of its class; the queues are consumed with capped concurrency; the table cannot be deleted
 * by accident; domains get certificates and, with a hosted zone, records; WAF appears only when asked.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ALARMS } from '../../lib/infra/constructs/monitoring.js';
import { STREAMING_SERVICE } from '../../lib/infra/constructs/streaming-service.js';
import { API_KEY_AUTHORIZER_TTL, STAGE_THROTTLE, routeClass } from '../../lib/infra/constructs/edge.js';
import { DISPATCH_QUEUE, KNOWLEDGE_CONSUMER_MAX_CONCURRENCY, WEBHOOK_CONSUMER_MAX_CONCURRENCY } from '../../lib/infra/constructs/storage.js';
import { AGENT_TEST_QUEUE_SETTINGS } from '../../lib/store/queue.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { loadConfig, VENDOR_KEY_NAMES } from '../../lib/config.js';
import { CALL_METRICS } from '../../lib/services/call-metrics.js';
import { AUTHORIZER_ENTRY, asArray, refId, STACK_VARIANTS, synthPlatform, type Resource, type Statement } from '../support/stack.js';

let resources: Record<string, Resource>;
const ofType = (type: string, from = resources) => Object.entries(from).filter(([, r]) => r.Type === type);
const idOf = (type: string, prefix: string, from = resources) => {
  const found = ofType(type, from).filter(([id]) => id.startsWith(prefix));
  expect(found, `${type} ${prefix}`).toHaveLength(1);
  return found[0]![0];
};
const policyStatements = (from = resources) =>
  ofType('AWS::IAM::Policy', from).map(([, p]) => ({
    roles: asArray(p.Properties!.Roles).map(refId),
    statements: p.Properties!.PolicyDocument.Statement as Statement[],
  }));

beforeAll(() => {
  resources = synthPlatform(STACK_VARIANTS.alarmEmail).resources;
});

describe('vendor keys', () => {
  it('map the whole secret into the streaming container as VENDOR_KEYS, readable only by the task execution role', () => {
    const secretId = idOf('AWS::SecretsManager::Secret', 'VendorKeys');
    expect(resources[secretId]!.Properties!.SecretString).toBe('{}');
    expect(resources[secretId]!.DeletionPolicy).toBe('Retain');
    const [[, task]] = ofType('AWS::ECS::TaskDefinition') as [[string, Resource]];
    const container = task.Properties!.ContainerDefinitions[0];
    // No field names: a new vendor is a new field in the secret, not a change to the stack.
    expect(container.Secrets).toEqual([{ Name: 'VENDOR_KEYS', ValueFrom: { Ref: secretId } }]);
    const readers = policyStatements()
      .filter(({ statements }) => statements.some((s) => asArray(s.Resource).some((r) => refId(r) === secretId)))
      .flatMap(({ roles }) => roles);
    expect(readers).toEqual([refId(task.Properties!.ExecutionRoleArn)]);
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      expect(fn.Properties!.Environment?.Variables?.VENDOR_KEYS, id).toBeUndefined();
    }
  });

  it('are spread by the config into the vendor-key variables it names; a variable set on its own wins', () => {
    const config = loadConfig({ VENDOR_KEYS: JSON.stringify({ OPENAI_API_KEY: 'sk-1', DEEPGRAM_API_KEY: 'dg-1' }), DEEPGRAM_API_KEY: 'own' });
    expect(config.OPENAI_API_KEY).toBe('sk-1');
    expect(config.DEEPGRAM_API_KEY).toBe('own');
    expect(config.CARTESIA_API_KEY).toBeUndefined();
    expect(loadConfig({ VENDOR_KEYS: '{}' }).OPENAI_API_KEY).toBeUndefined();
    expect(VENDOR_KEY_NAMES).toEqual(expect.arrayContaining(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GOOGLE_API_KEY', 'DEEPGRAM_API_KEY', 'ASSEMBLYAI_API_KEY', 'SPEECHMATICS_API_KEY', 'ELEVENLABS_API_KEY', 'CARTESIA_API_KEY']));
  });

  it('refuse a malformed secret or an unknown field by name, never echoing a value', () => {
    expect(() => loadConfig({ VENDOR_KEYS: 'sk-secret-text' })).toThrow(/VENDOR_KEYS must be a JSON object/);
    expect(() => loadConfig({ VENDOR_KEYS: 'sk-secret-text' })).not.toThrow(/sk-secret/);
    expect(() => loadConfig({ VENDOR_KEYS: JSON.stringify({ OPENAI_KEY: 'sk-secret' }) })).toThrow(/OPENAI_KEY/);
    expect(() => loadConfig({ VENDOR_KEYS: JSON.stringify({ OPENAI_KEY: 'sk-secret' }) })).not.toThrow(/sk-secret/);
    expect(() => loadConfig({ VENDOR_KEYS: JSON.stringify({ OPENAI_API_KEY: 42 }) })).toThrow(/strings/);
  });
});

describe('alarms', () => {
  const alarms = () => ofType('AWS::CloudWatch::Alarm');
  const topicId = () => idOf('AWS::SNS::Topic', 'Monitoring');
  const alarm = (prefix: string) => {
    const found = alarms().filter(([id]) => id.startsWith(`Monitoring${prefix}`));
    expect(found.length, prefix).toBeGreaterThan(0);
    return found.map(([, a]) => a.Properties!);
  };

  it('every alarm notifies the topic on alarm and on recovery, and ignores missing data', () => {
    expect(alarms().length).toBeGreaterThan(10);
    for (const [id, a] of alarms()) {
      expect(asArray(a.Properties!.AlarmActions).map(refId), id).toEqual([topicId()]);
      expect(asArray(a.Properties!.OKActions).map(refId), id).toEqual([topicId()]);
      expect(a.Properties!.TreatMissingData, id).toBe('notBreaching');
    }
  });

  it('mails the topic when alarmEmail is given, and subscribes nothing otherwise', () => {
    const [[, sub]] = ofType('AWS::SNS::Subscription') as [[string, Resource]];
    expect(sub.Properties).toMatchObject({ Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: topicId() } });
    expect(ofType('AWS::SNS::Subscription', synthPlatform().resources)).toHaveLength(0);
  });

  it('watches both dead-letter queues for any message', () => {
    for (const name of ['CallDispatchDeadLetters', 'WebhookDeliveriesDeadLetters']) {
      const [a] = alarm(name);
      expect(a).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Namespace: 'AWS/SQS', Threshold: ALARMS.deadLettersAbove, ComparisonOperator: 'GreaterThanThreshold' });
    }
  });

  it('covers the errors and throttles of every function, in groups of at most 10 per alarm', () => {
    const functionIds = ofType('AWS::Lambda::Function').map(([id]) => id);
    for (const kind of ['Errors', 'Throttles']) {
      const watched = alarms()
        .filter(([id]) => new RegExp(`^Monitoring[A-Za-z]+\\d*${kind}`).test(id))
        .flatMap(([, a]) => {
          const metrics = (a.Properties!.Metrics ?? [{ MetricStat: { Metric: a.Properties } }]) as any[];
          const stats = metrics.filter((m) => m.MetricStat).map((m) => m.MetricStat.Metric);
          expect(stats.length).toBeLessThanOrEqual(10);
          for (const m of stats) expect(m.MetricName).toBe(kind);
          return stats.map((m) => refId(m.Dimensions[0].Value));
        });
      expect(watched.sort(), kind).toEqual([...functionIds].sort());
    }
  });

  it('watches API 5xx rate and p99 latency, unhealthy streaming targets, calls near the maximum and the call failure rate', () => {
    const [rate] = alarm('Api5xxRate');
    expect(rate!.Threshold).toBe(ALARMS.api5xxPercentAbove);
    expect(JSON.stringify(rate!.Metrics)).toContain('5xx');
    const [p99] = alarm('ApiP99Latency');
    expect(p99).toMatchObject({ MetricName: 'Latency', ExtendedStatistic: 'p99', Threshold: ALARMS.apiP99LatencyMsAbove });
    const [unhealthy] = alarm('StreamingUnhealthyHosts');
    expect(unhealthy).toMatchObject({ MetricName: 'UnHealthyHostCount', Namespace: 'AWS/ApplicationELB', Threshold: 0 });
    const [active] = alarm('ActiveCallsNearMaximum');
    // Each task writes its count once a minute: the minute's sum is the calls in progress on all tasks.
    expect(active!.Metrics[0].MetricStat).toMatchObject({ Metric: { MetricName: 'ActiveSessions' }, Stat: 'Sum', Period: 60 });
    expect(active!.Threshold).toBeLessThan(STREAMING_SERVICE.maxTasks * STREAMING_SERVICE.targetSessionsPerTask);
    expect(active!.Threshold).toBeGreaterThanOrEqual(ALARMS.activeCallsShareOfMax * STREAMING_SERVICE.maxTasks * STREAMING_SERVICE.targetSessionsPerTask - 1);
    const [calls] = alarm('CallFailureRate');
    const names = (calls!.Metrics as any[]).filter((m) => m.MetricStat).map((m) => m.MetricStat.Metric);
    expect(names.map((m) => m.MetricName).sort()).toEqual([CALL_METRICS.ended, CALL_METRICS.failed]);
    for (const m of names) {
      expect(m.Namespace).toBe(CALL_METRICS.namespace);
      expect(m.Dimensions).toEqual([{ Name: CALL_METRICS.dimension, Value: 'Test' }]);
    }
  });

  it('has a dashboard, and every function emits call outcomes for the stack the alarm watches', () => {
    expect(ofType('AWS::CloudWatch::Dashboard')).toHaveLength(1);
    for (const [id, fn] of ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties!.Description !== AUTHORIZER_ENTRY)) {
      expect(fn.Properties!.Environment.Variables, id).toMatchObject({ METRICS_MODE: 'emf', METRICS_STACK: 'Test' });
    }
    const [[, task]] = ofType('AWS::ECS::TaskDefinition') as [[string, Resource]];
    const env = Object.fromEntries((task.Properties!.ContainerDefinitions[0].Environment as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value]));
    expect(env).toMatchObject({ METRICS_MODE: 'emf', METRICS_STACK: 'Test' });
  });
});

describe('edge', () => {
  it('puts every keyed route behind the API-key authorizer, cached per key, and no public route', () => {
    const [[authorizerId, authorizer]] = ofType('AWS::ApiGatewayV2::Authorizer') as [[string, Resource]];
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      IdentitySource: ['$request.header.x-api-key'],
      AuthorizerResultTtlInSeconds: API_KEY_AUTHORIZER_TTL.toSeconds(),
      EnableSimpleResponses: true,
      AuthorizerPayloadFormatVersion: '2.0',
    });
    const routes = ofType('AWS::ApiGatewayV2::Route');
    for (const spec of Object.values(ROUTES)) {
      const [, route] = routes.find(([, r]) => r.Properties!.RouteKey === `${spec.method} ${spec.path}`)!;
      if (spec.auth) {
        expect(route.Properties!.AuthorizationType, spec.path).toBe('CUSTOM');
        expect(refId(route.Properties!.AuthorizerId), spec.path).toBe(authorizerId);
      } else {
        expect(route.Properties!.AuthorizationType ?? 'NONE', spec.path).toBe('NONE');
      }
    }
  });

  it("gives the authorizer read access to the table and nothing else: no data key, no writes but a key's last use", () => {
    const [[fnId, fn]] = ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties!.Description === AUTHORIZER_ENTRY) as [[string, Resource]];
    expect(fnId).toMatch(/^Edge/);
    expect(Object.keys(fn.Properties!.Environment.Variables).sort()).toEqual(['LOG_LEVEL', 'TABLE_NAME']);
    const statements = policyStatements()
      .filter(({ roles }) => roles.includes(refId(fn.Properties!.Role)))
      .flatMap(({ statements }) => statements);
    for (const s of statements) {
      for (const a of asArray(s.Action)) {
        if (a === 'dynamodb:UpdateItem') {
          // The one write: `lastUsedAt` on key lookup items (docs/dashboard.md), nothing else.
          expect(s.Condition).toEqual({
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*'] },
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'lastUsedAt'] },
          });
          continue;
        }
        expect(a).toMatch(/^(dynamodb:(BatchGetItem|GetRecords|GetShardIterator|Query|GetItem|Scan|ConditionCheckItem|DescribeTable)|xray:)/);
      }
    }
  });

  it('throttles the stage: keyed routes by default, each other route by its class', () => {
    const [[, stage]] = ofType('AWS::ApiGatewayV2::Stage') as [[string, Resource]];
    expect(stage.Properties!.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: STAGE_THROTTLE.keyed.rateLimit, ThrottlingBurstLimit: STAGE_THROTTLE.keyed.burstLimit });
    const settings = stage.Properties!.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
    for (const spec of Object.values(ROUTES).filter((r) => !r.auth)) {
      const c = STAGE_THROTTLE[routeClass(spec)];
      expect(settings[`${spec.method} ${spec.path}`], spec.path).toEqual({ ThrottlingRateLimit: c.rateLimit, ThrottlingBurstLimit: c.burstLimit });
    }
    expect(settings['POST /twilio/voice']).toEqual({ ThrottlingRateLimit: STAGE_THROTTLE.webhook.rateLimit, ThrottlingBurstLimit: STAGE_THROTTLE.webhook.burstLimit });
    // CloudFormation refuses settings for a route that does not exist yet.
    expect(asArray(stage.DependsOn).filter((d) => resources[d]?.Type === 'AWS::ApiGatewayV2::Route')).toHaveLength(Object.keys(ROUTES).length);
  });

  it('has no WAF unless asked, and with waf a regional web ACL on the streaming ALB', () => {
    expect(ofType('AWS::WAFv2::WebACL')).toHaveLength(0);
    const withWaf = synthPlatform(STACK_VARIANTS.waf).resources;
    const [[aclId, acl]] = ofType('AWS::WAFv2::WebACL', withWaf) as [[string, Resource]];
    expect(acl.Properties!.Scope).toBe('REGIONAL');
    const [[, association]] = ofType('AWS::WAFv2::WebACLAssociation', withWaf) as [[string, Resource]];
    expect(refId(association.Properties!.WebACLArn)).toBe(aclId);
    expect(refId(association.Properties!.ResourceArn)).toBe(ofType('AWS::ElasticLoadBalancingV2::LoadBalancer', withWaf)[0]![0]);
  });
});

describe('queues, scaling and the table', () => {
  it('caps the consumers concurrency on every event source', () => {
    const maxima = ofType('AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties!.ScalingConfig?.MaximumConcurrency).sort();
    expect(maxima).toEqual([DISPATCH_QUEUE.maxConcurrency, WEBHOOK_CONSUMER_MAX_CONCURRENCY, KNOWLEDGE_CONSUMER_MAX_CONCURRENCY, AGENT_TEST_QUEUE_SETTINGS.consumerConcurrency].sort());
  });

  it('protects the table from deletion', () => {
    const [[, table]] = ofType('AWS::DynamoDB::GlobalTable') as [[string, Resource]];
    expect(table.Properties!.Replicas[0].DeletionProtectionEnabled).toBe(true);
  });
});

describe('domains', () => {
  const zone = STACK_VARIANTS.domainsInZone.domains.hostedZone;

  it('with a hosted zone: DNS-validated certificates, the API mapped on its domain, alias records, https base URL', () => {
    const r = synthPlatform(STACK_VARIANTS.domainsInZone).resources;
    const certificates = ofType('AWS::CertificateManager::Certificate', r).map(([, c]) => c.Properties!);
    expect(certificates.map((c) => c.DomainName).sort()).toEqual(['api.example.com', 'stream.example.com']);
    for (const c of certificates) {
      expect(c.ValidationMethod).toBe('DNS');
      expect(c.DomainValidationOptions).toEqual([{ DomainName: c.DomainName, HostedZoneId: zone.hostedZoneId }]);
    }
    const records = ofType('AWS::Route53::RecordSet', r).map(([, rec]) => rec.Properties!);
    expect(records.map((rec) => [rec.Name, rec.Type, rec.HostedZoneId]).sort()).toEqual([
      ['api.example.com.', 'A', zone.hostedZoneId],
      ['stream.example.com.', 'A', zone.hostedZoneId],
    ]);
    expect(ofType('AWS::ApiGatewayV2::ApiMapping', r)).toHaveLength(1);
    const [[, listener]] = ofType('AWS::ElasticLoadBalancingV2::Listener', r) as [[string, Resource]];
    expect(listener.Properties!.Protocol).toBe('HTTPS');
    for (const [, fn] of ofType('AWS::Lambda::Function', r).filter(([, f]) => f.Properties!.Description !== AUTHORIZER_ENTRY)) {
      expect(fn.Properties!.Environment.Variables.PUBLIC_BASE_URL).toBe('https://api.example.com');
      expect(fn.Properties!.Environment.Variables.STREAM_URL).toBe('wss://stream.example.com/media-stream');
    }
  });

  it('without a zone: certificates still DNS-validated (records made by hand), and no records', () => {
    const r = synthPlatform(STACK_VARIANTS.domains).resources;
    const certificates = ofType('AWS::CertificateManager::Certificate', r).map(([, c]) => c.Properties!);
    expect(certificates).toHaveLength(2);
    for (const c of certificates) expect(c.ValidationMethod).toBe('DNS');
    expect(ofType('AWS::Route53::RecordSet', r)).toHaveLength(0);
  });
});

describe('every option at once', () => {
  // Synthesis runs CloudFormation's validation, which throws on an invalid template: the stack nag.test.ts
  // checks with every option is a valid one too.
  it('synthesizes a valid template with the email, domains in a zone, WAF and existing secrets together', () => {
    const r = synthPlatform(STACK_VARIANTS.everyOption).resources;
    expect(ofType('AWS::SNS::Subscription', r).map(([, s]) => s.Properties!.Endpoint)).toEqual(['ops@example.com']);
    expect(ofType('AWS::Route53::RecordSet', r)).toHaveLength(2);
    expect(ofType('AWS::WAFv2::WebACLAssociation', r)).toHaveLength(1);
    // The existing Twilio and vendor-key secrets are used; the data key is always the stack's own.
    expect(ofType('AWS::SecretsManager::Secret', r).map(([id]) => id)).toEqual([expect.stringMatching(/^DataKey/)]);
  });
});

describe('agent-test runs (docs/agent-tests.md)', () => {
  it('are queued to a consumer that plays one run at a time, times out before redelivery, and may write the table, announce and requeue', () => {
    const queueId = idOf('AWS::SQS::Queue', 'AgentTestRuns', Object.fromEntries(ofType('AWS::SQS::Queue').filter(([id]) => !id.includes('DeadLetters'))));
    const queue = resources[queueId]!.Properties!;
    expect(queue.VisibilityTimeout).toBe(AGENT_TEST_QUEUE_SETTINGS.visibilityTimeoutSeconds);
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(AGENT_TEST_QUEUE_SETTINGS.maxReceiveCount);
    expect(refId(queue.RedrivePolicy.deadLetterTargetArn)).toBe(idOf('AWS::SQS::Queue', 'AgentTestRunsDeadLetters'));
    const [[fnId, fn]] = ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties!.Description === 'functions/queue/agent-tests.ts') as [[string, Resource]];
    expect(fn.Properties!.Timeout).toBe(AGENT_TEST_QUEUE_SETTINGS.consumerTimeoutSeconds);
    expect(fn.Properties!.Timeout).toBeLessThan(queue.VisibilityTimeout);
    const env = fn.Properties!.Environment.Variables as Record<string, unknown>;
    expect(refId(env.AGENT_TEST_QUEUE_URL)).toBe(queueId);
    for (const name of ['TABLE_NAME', 'WEBHOOK_QUEUE_URL']) expect(env[name], name).toBeDefined();
    expect(env.WEB_STREAM_URL, 'the chat socket it plays on').toBeDefined();
    const [mapping] = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => refId(m.Properties!.FunctionName) === fnId).map(([, m]) => m.Properties!);
    expect(mapping).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'], ScalingConfig: { MaximumConcurrency: AGENT_TEST_QUEUE_SETTINGS.consumerConcurrency } });
    expect(refId(mapping!.EventSourceArn)).toBe(queueId);
    const alarmed = ofType('AWS::CloudWatch::Alarm').some(([, a]) => JSON.stringify(a.Properties!.Dimensions ?? []).includes('AgentTestRunsDeadLetters'));
    expect(alarmed, 'its dead letters are watched').toBe(true);
  });
});
