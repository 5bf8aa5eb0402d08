/**
 * Invariant: the platform's Twilio credentials live in one Secrets Manager secret, and only the handlers that
 * act for the platform's own account (search, buy, release, the signed webhooks) can read it and are told
 * where it is (TWILIO_SECRET_ARN); every other function can do neither. The webhook routes come from the route
 * table like any other. An existing secret can be passed instead of creating one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { planRouteFunctions } from '../../lib/infra/entry-needs.js';
import { asArray, refId, STACK_VARIANTS, synthPlatform, type Resource, type Statement } from '../support/stack.js';

/** The template's resources, synthesized without bundling. */
const synth = (props: Parameters<typeof synthPlatform>[0] = {}): Record<string, Resource> => synthPlatform(props).resources;

/** The entries that must read the platform's Twilio account. */
const TWILIO_READERS = [
  'functions/phone-numbers/available.ts',
  'functions/phone-numbers/buy.ts',
  'functions/phone-numbers/delete.ts',
  'functions/twilio/voice.ts',
  'functions/twilio/status.ts',
  // Voicemail verdicts hang up or redirect the call; a warm transfer's answer bridges it.
  'functions/twilio/amd.ts',
  'functions/twilio/transfer.ts',
];

let resources: Record<string, Resource>;
const ofType = (type: string, from = resources) => Object.entries(from).filter(([, r]) => r.Type === type);

/** Secret ids a function's role may read, and its TWILIO_SECRET_ARN. */
function twilioAccessOf(from: Record<string, Resource>, entry: string) {
  const found = ofType('AWS::Lambda::Function', from).find(([, fn]) => JSON.stringify(fn).includes(entry));
  expect(found, entry).toBeDefined();
  const fn = found![1];
  const roleId = refId(fn.Properties!.Role);
  const statements = ofType('AWS::IAM::Policy', from)
    .filter(([, p]) => asArray(p.Properties!.Roles).some((r) => refId(r) === roleId))
    .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement as Statement[]);
  const secretReads = statements
    .filter((s) => asArray(s.Action).includes('secretsmanager:GetSecretValue'))
    .flatMap((s) => asArray(s.Resource));
  return { env: fn.Properties!.Environment.Variables as Record<string, unknown>, secretReads };
}

beforeAll(() => {
  resources = synth();
});

describe('Twilio credentials in the stack', () => {
  it('creates one retained secret holding {accountSid, authToken} JSON', () => {
    const twilio = ofType('AWS::SecretsManager::Secret').filter(([id]) => id.startsWith('TwilioCredentials'));
    expect(twilio).toHaveLength(1);
    const [, secret] = twilio[0]!;
    expect(secret.DeletionPolicy).toBe('Retain');
    const gen = secret.Properties!.GenerateSecretString;
    expect(JSON.parse(gen.SecretStringTemplate)).toEqual({ accountSid: '' });
    expect(gen.GenerateStringKey).toBe('authToken');
  });

  it('lets exactly the handlers that act for the platform account read it, and tells only them where it is', () => {
    const secretId = ofType('AWS::SecretsManager::Secret').find(([id]) => id.startsWith('TwilioCredentials'))![0];
    const entries = planRouteFunctions().map((p) => p.entry as string);
    for (const entry of TWILIO_READERS) expect(entries, entry).toContain(entry);
    for (const entry of entries) {
      const { env, secretReads } = twilioAccessOf(resources, entry);
      const reads = secretReads.some((r) => refId(r) === secretId);
      const expected = TWILIO_READERS.includes(entry);
      expect(reads, `${entry} reads the Twilio secret`).toBe(expected);
      expect(refId(env.TWILIO_SECRET_ARN), entry).toBe(expected ? secretId : undefined);
      // Never the credentials themselves in a function's environment.
      expect(env.TWILIO_AUTH_TOKEN, entry).toBeUndefined();
      expect(env.TWILIO_ACCOUNT_SID, entry).toBeUndefined();
    }
  });

  it('routes the webhooks like any other route, without an authorizer', () => {
    const routes = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties!);
    for (const key of ['POST /twilio/voice', 'POST /twilio/status']) {
      const route = routes.find((r) => r.RouteKey === key);
      expect(route, key).toBeDefined();
      expect(route!.AuthorizationType ?? 'NONE').toBe('NONE');
    }
    for (const key of ['GET /api/phone-numbers/available', 'POST /api/phone-numbers/buy', 'POST /api/phone-numbers/import', 'GET /api/phone-numbers', 'GET /api/phone-numbers/{id}', 'PATCH /api/phone-numbers/{id}', 'GET /api/phone-numbers/{id}/inbound-deliveries', 'DELETE /api/phone-numbers/{id}']) {
      expect(routes.some((r) => r.RouteKey === key), key).toBe(true);
    }
  });

  it('uses an existing secret when given its ARN, creating none', () => {
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:twilio-platform-AbCdEf';
    expect(STACK_VARIANTS.twilioSecretArn.twilioSecretArn).toBe(arn);
    const given = synth(STACK_VARIANTS.twilioSecretArn);
    expect(ofType('AWS::SecretsManager::Secret', given).filter(([id]) => id.startsWith('TwilioCredentials'))).toHaveLength(0);
    const { env, secretReads } = twilioAccessOf(given, 'functions/twilio/voice.ts');
    expect(env.TWILIO_SECRET_ARN).toBe(arn);
    expect(JSON.stringify(secretReads)).toContain('twilio-platform-AbCdEf');
    expect(twilioAccessOf(given, 'functions/phone-numbers/import.ts').env.TWILIO_SECRET_ARN).toBeUndefined();
  });
});
