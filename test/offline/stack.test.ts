/**
 * Invariant: the CDK stack is built from the same definitions the code runs on. The table has exactly the
 * model's keys and indexes; every route of lib/infra/routes.ts is an API route reaching the one Lambda of its
 * handler module; the recordings bucket is private, encrypted and aged out; the dispatch queue redrives to its
 * dead letters after as many receives as the local SQS; every function runs the shared runtime as an ESM
 * bundle and holds only the rights its needs name (never `*` on `*`).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeDataKey } from '../../lib/deps.js';
import { MAX_RECEIVE_COUNT } from '../../lib/local/platform/sqs.js';
import { LAMBDA_RUNTIME, BUNDLE_OPTIONS } from '../../lib/infra/bundling.js';
import { DOCS_ASSETS_DIR, DOCS_ASSET_FILES } from '../../lib/infra/docs-assets.js';
import { MEETING_ASSETS_DIR, MEETING_ASSET_FILES } from '../../lib/web/meeting/assets.js';
import { ENTRY_NEEDS, planRouteFunctions } from '../../lib/infra/entry-needs.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { TABLE } from '../../lib/store/model.js';
import { PHONE_METADATA_FILE } from '../../lib/domain/phone.js';
import { WORKBOOK_LIBS_FILE } from '../../lib/domain/contact-import/xlsx.js';
import { AGENT_TEST_LIBS_FILE } from '../../lib/services/agent-test-libs-load.js';
import { AGENT_TEST_CONSUMER_MODULES } from '../../lib/infra/constructs/background-functions.js';
import type { RouteEntry } from '../../lib/infra/entry-needs.js';
import { AUTHORIZER_ENTRY, asArray, handlerFunctions, refId, STACK_VARIANTS, synthFunctionAsset, synthPlatform, type Resource, type Statement } from '../support/stack.js';
import { CONSUMER_TIMEOUT, SQS_VISIBILITY_PER_TIMEOUT } from '../../lib/infra/constructs/storage.js';

/** The template, synthesized without bundling (the bundle test below runs one real bundle). */
const synth = (props: Parameters<typeof synthPlatform>[0] = {}): Template => synthPlatform(props).template;


let template: Template;
let resources: Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

beforeAll(() => {
  template = synth();
  resources = template.toJSON().Resources as Record<string, Resource>;
});

describe('table', () => {
  it('has exactly the key schema and global indexes of the model', () => {
    const [only, ...more] = ofType('AWS::DynamoDB::GlobalTable');
    expect(more).toHaveLength(0);
    const props = only![1].Properties!;
    const keySchema = (pk: string, sk: string) => [
      { AttributeName: pk, KeyType: 'HASH' },
      { AttributeName: sk, KeyType: 'RANGE' },
    ];
    expect(props.KeySchema).toEqual(keySchema(TABLE.partitionKey, TABLE.sortKey));
    expect(props.GlobalSecondaryIndexes).toEqual(
      TABLE.globalIndexes.map((i) => ({
        IndexName: i.name,
        KeySchema: keySchema(i.partitionKey, i.sortKey),
        Projection: { ProjectionType: i.projection },
      })),
    );
    const keyNames = [TABLE.partitionKey, TABLE.sortKey, ...TABLE.globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey])];
    expect(props.AttributeDefinitions).toEqual(keyNames.map((AttributeName) => ({ AttributeName, AttributeType: 'S' })));
  });

  it('is on-demand, point-in-time recoverable and survives the stack', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
      }),
    });
  });
});

describe('recordings bucket', () => {
  it('blocks public access, is encrypted, retained and ages recordings out', () => {
    // The recordings and the dashboard's pages (test/offline/dashboard-stack.test.ts).
    template.resourceCountIs('AWS::S3::Bucket', 2);
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        LifecycleConfiguration: {
          Rules: [Match.objectLike({
            Status: 'Enabled',
            Transitions: [{ StorageClass: 'STANDARD_IA', TransitionInDays: 30 }],
            ExpirationInDays: 365,
          })],
        },
      }),
    });
  });

  it('refuses plain HTTP', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('call-dispatch queue', () => {
  it('redrives to its dead-letter queue after as many receives as the local SQS, and is encrypted', () => {
    // The call-dispatch pair (the webhook pair is test/offline/webhooks-stack.test.ts's).
    const queues = ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith('CallDispatch'));
    expect(queues).toHaveLength(2);
    const withRedrive = queues.filter(([, q]) => q.Properties?.RedrivePolicy);
    expect(withRedrive).toHaveLength(1);
    const [, dispatch] = withRedrive[0]!;
    const dlqId = refId(dispatch.Properties!.RedrivePolicy.deadLetterTargetArn);
    expect(resources[dlqId!]?.Type).toBe('AWS::SQS::Queue');
    expect(dlqId).not.toBe(withRedrive[0]![0]);
    expect(dispatch.Properties!.RedrivePolicy.maxReceiveCount).toBe(MAX_RECEIVE_COUNT);
    // AWS's advice: at least six consumer timeouts, so a throttled receive never counts against a running batch.
    expect(dispatch.Properties!.VisibilityTimeout).toBeGreaterThanOrEqual(CONSUMER_TIMEOUT.toSeconds() * SQS_VISIBILITY_PER_TIMEOUT);
    for (const [, q] of queues) expect(q.Properties!.SqsManagedSseEnabled).toBe(true);
  });
});

describe('data-key secret', () => {
  it('generates 64 characters from 0-9a-f only, which decode to a 32-byte key, and is retained', () => {
    const [[, secret]] = ofType('AWS::SecretsManager::Secret') as [[string, Resource]];
    expect(secret.DeletionPolicy).toBe('Retain');
    const gen = secret.Properties!.GenerateSecretString as Record<string, unknown>;
    expect(gen.SecretStringTemplate).toBeUndefined(); // a JSON wrapper would not decode
    // Reproduce Secrets Manager's alphabet from the generator settings.
    const punctuation = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
    const alphabet = new Set<string>();
    for (let c = 0x21; c <= 0x7e; c += 1) alphabet.add(String.fromCharCode(c));
    if (gen.IncludeSpace === true) alphabet.add(' ');
    for (const ch of alphabet) {
      const drop = (gen.ExcludeUppercase === true && /[A-Z]/.test(ch))
        || (gen.ExcludeLowercase === true && /[a-z]/.test(ch))
        || (gen.ExcludeNumbers === true && /[0-9]/.test(ch))
        || (gen.ExcludePunctuation === true && punctuation.includes(ch))
        || String(gen.ExcludeCharacters ?? '').includes(ch);
      if (drop) alphabet.delete(ch);
    }
    expect([...alphabet].sort().join('')).toBe('0123456789abcdef');
    const sample = Array.from({ length: gen.PasswordLength as number }, (_, i) => '0123456789abcdef'[i % 16]).join('');
    expect(decodeDataKey(sample)).toHaveLength(32);
  });
});

describe('API routes and functions', () => {
  const functions = () => ofType('AWS::Lambda::Function');
  const functionFor = (entry: string) => {
    const found = functions().filter(([, f]) => f.Properties!.Description === entry);
    expect(found, entry).toHaveLength(1);
    return found[0]!;
  };
  const entries = [...new Set(Object.values(ROUTES).map((r) => r.entry))];

  it('has one Lambda per distinct handler module', () => {
    // Queue consumers (functions/queue/) and scheduled jobs (functions/schedule/) are the only functions outside the route table.
    // The API-key authorizer sits in front of the routes.
    const routeFunctions = functions().filter(([, f]) => !/^functions\/(queue|schedule)\//.test(String(f.Properties!.Description)) && f.Properties!.Description !== AUTHORIZER_ENTRY);
    expect(routeFunctions).toHaveLength(entries.length);
    expect(functions().filter(([, f]) => f.Properties!.Description === AUTHORIZER_ENTRY)).toHaveLength(1);
    for (const entry of entries) functionFor(entry);
  });

  it('has one route per route-table entry, integrated with the Lambda of its handler module', () => {
    const routes = ofType('AWS::ApiGatewayV2::Route');
    expect(routes).toHaveLength(Object.keys(ROUTES).length);
    for (const spec of Object.values(ROUTES)) {
      const routeKey = `${spec.method} ${spec.path}`;
      const matching = routes.filter(([, r]) => r.Properties!.RouteKey === routeKey);
      expect(matching, routeKey).toHaveLength(1);
      const target = matching[0]![1].Properties!.Target['Fn::Join'][1] as unknown[];
      const integration = resources[refId(target[1])!]!;
      expect(integration.Properties!.PayloadFormatVersion).toBe('2.0');
      expect(refId(integration.Properties!.IntegrationUri), routeKey).toBe(functionFor(spec.entry)[0]);
    }
  });

  it('runs every function on the shared runtime, arm64, traced, logging to a group with retention', () => {
    for (const [id, fn] of functions()) {
      const p = fn.Properties!;
      expect(p.Runtime, id).toBe(LAMBDA_RUNTIME);
      expect(p.Architectures).toEqual(['arm64']);
      expect(p.Handler).toBe('index.handler');
      expect(p.TracingConfig).toEqual({ Mode: 'Active' });
      const logGroup = resources[refId(p.LoggingConfig.LogGroup)!]!;
      expect(logGroup.Properties!.RetentionInDays).toBeGreaterThan(0);
      // Below HTTP API's 30 s integration limit, so a slow run ends as a Lambda timeout, not a 503 (scheduled
      // jobs sit behind no API, nor does the agent-test run consumer, whose suites of chats take minutes).
      const behindNoApi = String(p.Description).startsWith('functions/schedule/') || p.Description === 'functions/queue/agent-tests.ts';
      if (!behindNoApi) expect(p.Timeout, String(p.Description)).toBeLessThan(30);
    }
  });

  it('gives each function exactly the environment and IAM rights its needs name', () => {
    const statementsOf = (roleId: string): Statement[] =>
      ofType('AWS::IAM::Policy')
        .filter(([, pol]) => asArray(pol.Properties!.Roles).some((r) => refId(r) === roleId))
        .flatMap(([, pol]) => pol.Properties!.PolicyDocument.Statement as Statement[]);
    const writes = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
    const plans = planRouteFunctions();
    expect(plans.map((p) => p.entry).sort()).toEqual([...entries].sort());
    for (const { entry, needs, routes } of plans) {
      const [, fn] = functionFor(entry);
      const env = fn.Properties!.Environment.Variables as Record<string, unknown>;
      const statements = statementsOf(refId(fn.Properties!.Role)!);
      // The rate-limit counters' grant (UpdateItem on RATE#* partitions only) and the key-use one (only
      // `lastUsedAt` of APIKEY#* items) are checked apart below.
      const isRateGrant = (s: Statement) =>
        [
          { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
          { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*'] }, 'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'lastUsedAt'] } },
        ].some((c) => JSON.stringify((s as { Condition?: unknown }).Condition ?? null) === JSON.stringify(c));
      const actions = statements.filter((s) => !isRateGrant(s)).flatMap((s) => asArray(s.Action));
      const dynamo = actions.filter((a) => a.startsWith('dynamodb:'));
      const rateGrants = statements.filter(isRateGrant);
      const limited = needs.table !== 'none' && routes.some((r) => r.auth || r.ipLimit);
      expect(rateGrants.map((s) => asArray(s.Action)), entry).toEqual(limited ? [['dynamodb:UpdateItem'], ['dynamodb:UpdateItem']] : []);

      expect(refId(env.SECRET_KEY_ARN), entry).toBe(ofType('AWS::SecretsManager::Secret')[0]![0]);
      expect(actions).toContain('secretsmanager:GetSecretValue');
      expect(env.PUBLIC_BASE_URL, entry).toBeDefined();

      if (needs.table === 'none') {
        expect(env.TABLE_NAME, entry).toBeUndefined();
        expect(dynamo, entry).toEqual([]);
      } else {
        expect(refId(env.TABLE_NAME), entry).toBe(ofType('AWS::DynamoDB::GlobalTable')[0]![0]);
        expect(dynamo, entry).toContain('dynamodb:Query');
        if (needs.table === 'read') expect(dynamo.filter((a) => writes.includes(a)), entry).toEqual([]);
        else expect(dynamo, entry).toEqual(expect.arrayContaining(writes));
      }
      // The default follows the methods: a handler serving any non-GET route may write.
      if (!(entry in ENTRY_NEEDS)) expect(needs.table).toBe(routes.every((r) => r.method === 'GET') ? 'read' : 'readWrite');

      expect(env.BUCKET_NAME !== undefined, entry).toBe(needs.recordings !== undefined || needs.knowledge !== undefined);
      expect(actions.some((a) => a.startsWith('s3:')), entry).toBe(needs.recordings !== undefined || needs.knowledge !== undefined);
      expect(env.KNOWLEDGE_QUEUE_URL !== undefined, entry).toBe(needs.knowledge !== undefined);
      expect(env.DISPATCH_QUEUE_URL !== undefined, entry).toBe(needs.dispatch !== undefined);
      expect(env.WEBHOOK_QUEUE_URL !== undefined, entry).toBe(needs.webhooks !== undefined);
      expect(env.WEBHOOK_DLQ_URL, entry).toBeUndefined();
      expect(env.AGENT_TEST_QUEUE_URL !== undefined, entry).toBe(needs.agentTests !== undefined);
      expect(actions.some((a) => a.startsWith('sqs:')), entry).toBe(needs.dispatch !== undefined || needs.webhooks !== undefined || needs.knowledge !== undefined || needs.agentTests !== undefined);
    }
  });

  // Functions naming the API that invokes them is no dependency cycle: synthesis runs CloudFormation's
  // validation, which rejects cycles (error F3004), so the template existing at all is the proof.
  it('points PUBLIC_BASE_URL at the API itself by default, or at the publicBaseUrl given', () => {
    const apiId = ofType('AWS::ApiGatewayV2::Api')[0]![0];
    for (const [, fn] of handlerFunctions(resources)) {
      expect(fn.Properties!.Environment.Variables.PUBLIC_BASE_URL).toEqual({ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] });
    }
    const custom = synth(STACK_VARIANTS.publicBaseUrl).toJSON().Resources as Record<string, Resource>;
    const customFns = handlerFunctions(custom).map(([, fn]) => fn);
    expect(customFns.length).toBeGreaterThan(0);
    for (const fn of customFns) expect(fn.Properties!.Environment.Variables.PUBLIC_BASE_URL).toBe('https://voice.example.com');
    expect(() => synth({ publicBaseUrl: 'voice.example.com' })).toThrow(/absolute URL/);
  });
});

describe('IAM', () => {
  it('never allows a wildcard action, nor any action on every resource except X-Ray tracing', () => {
    // X-Ray's PutTraceSegments and PutTelemetryRecords, and ECR's GetAuthorizationToken (the streaming
    // service's execution role pulling its image), support no resource-level permissions.
    const resourceless = new Set(['xray:PutTraceSegments', 'xray:PutTelemetryRecords', 'ecr:GetAuthorizationToken']);
    const statements = [
      ...ofType('AWS::IAM::Policy').flatMap(([, p]) => p.Properties!.PolicyDocument.Statement as Statement[]),
      ...ofType('AWS::IAM::Role').flatMap(([, r]) => asArray(r.Properties!.Policies).flatMap((p: any) => p.PolicyDocument.Statement as Statement[])),
    ];
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements.filter((st) => st.Effect === 'Allow')) {
      const actions = asArray(s.Action);
      for (const a of actions) expect(a).not.toMatch(/^\*$|:\*$/);
      if (asArray(s.Resource).includes('*')) for (const a of actions) expect(resourceless.has(a), a).toBe(true);
    }
  });
});

describe('template', () => {
  it('outputs what the admin CLI and clients need', () => {
    const outputs = Object.keys(template.toJSON().Outputs as object);
    expect(outputs).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'DataKeySecretArn', 'DispatchQueueUrl', 'RecordingsBucketName']));
  });
});

describe('bundling', () => {
  it('bundles with the local esbuild into ESM and copies the docs and meeting assets beside the bundles', () => {
    // Two real bundles (the docs and meeting asset handlers, the only ones with extra files): seconds, not a minute.
    const dir = synthFunctionAsset('functions/docs/page.ts');
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    expect(code.startsWith(BUNDLE_OPTIONS.banner)).toBe(true);
    expect(code).toMatch(/export\s*\{[^}]*\bhandler\b[^}]*\}/);
    // The SDK is bundled (tree-shaken ES modules); the clients few handlers use are required on first use
    // only (lib/store/lazy-sdk.ts), so no SDK package is imported when the bundle loads.
    expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
    expect(code).not.toMatch(/require\(["']@aws-sdk\//);
    for (const file of DOCS_ASSET_FILES) expect(existsSync(join(dir, DOCS_ASSETS_DIR, file)), file).toBe(true);
    // The phone metadata is read from beside the bundle on first use (lib/domain/phone.ts), never bundled.
    expect(existsSync(join(dir, PHONE_METADATA_FILE))).toBe(true);

    const meetingDir = synthFunctionAsset('functions/meeting/assets.ts');
    for (const file of Object.keys(MEETING_ASSET_FILES)) expect(existsSync(join(meetingDir, MEETING_ASSETS_DIR, file)), file).toBe(true);
  });

  it("builds the agent-test consumer's model and voice adapters into their own module beside its bundle", () => {
    const dir = synthFunctionAsset('functions/queue/agent-tests.ts' as RouteEntry, { bundleModules: AGENT_TEST_CONSUMER_MODULES });
    const libs = readFileSync(join(dir, AGENT_TEST_LIBS_FILE), 'utf8');
    expect(libs.startsWith(BUNDLE_OPTIONS.banner)).toBe(true);
    for (const name of ['createLlmProvider', 'createTtsProvider', 'playVoiceScript']) expect(libs).toMatch(new RegExp(`export\\s*\\{[^}]*\\b${name}\\b[^}]*\\}`));
  });

  it("builds the upload function's workbook libraries into their own module beside a bundle within 510 KB", () => {
    // test/connected/contacts-upload-bundle.test.ts runs this very asset on an .xlsx. 510 KB: every
    // bundle's target (bundles.test.ts); the workbook libraries inside it would add ~65 KB.
    const dir = synthFunctionAsset('functions/contacts/upload.ts');
    expect(statSync(join(dir, 'index.mjs')).size).toBeLessThanOrEqual(510 * 1024);
    const libs = readFileSync(join(dir, WORKBOOK_LIBS_FILE), 'utf8');
    // An ES module of its own, built with the bundles' options (the banner), exporting what xlsx.ts loads.
    expect(libs.startsWith(BUNDLE_OPTIONS.banner)).toBe(true);
    expect(libs).toMatch(/export\s*\{[^}]*\bInflate\b[^}]*\}/);
    expect(libs).toMatch(/export\s*\{[^}]*\breadSheet\b[^}]*\}/);
    expect(existsSync(join(dir, PHONE_METADATA_FILE))).toBe(true);
  });
});
