/**
 * Invariant: the stack gives the dashboard what docs/dashboard.md promises: a Cognito pool with email
 * sign-in and a secretless client for USER_PASSWORD_AUTH with revocable 30-day refresh tokens; a private
 * pages bucket reached only through CloudFront (OAC); one distribution with `/dashboard/*` from the bucket
 * and everything else (so `/api/*` and `/auth/*`) from the HTTP API, uncached, cookies forwarded, https only;
 * and the pool, client and the pages' origin in the environment of exactly the dashboard's functions.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { COGNITO_PASSWORD_POLICY } from '../../lib/domain/password-policy.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { refId, synthPlatform, type Resource } from '../support/stack.js';

let resources: Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const one = (type: string) => {
  const found = ofType(type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

beforeAll(() => {
  ({ resources } = synthPlatform());
});

describe('dashboard sign-in', () => {
  it('has a user pool signing in by email, verified by code, kept on stack deletion', () => {
    const [, pool] = one('AWS::Cognito::UserPool');
    expect(pool.Properties!.UsernameAttributes).toEqual(['email']);
    expect(pool.Properties!.AutoVerifiedAttributes).toEqual(['email']);
    expect(pool.Properties!.Policies.PasswordPolicy).toMatchObject({ MinimumLength: 8, RequireSymbols: true });
    // The one policy the local pool gets too (test/connected/dashboard-accounts.test.ts checks that side).
    expect(pool.Properties!.Policies.PasswordPolicy).toMatchObject(COGNITO_PASSWORD_POLICY);
    expect(pool.DeletionPolicy).toBe('Retain');
  });

  it('has a client without a secret for password sign-in and revocable 30-day refresh tokens', () => {
    const [, client] = one('AWS::Cognito::UserPoolClient');
    expect(client.Properties!.GenerateSecret).toBe(false);
    expect(client.Properties!.ExplicitAuthFlows).toEqual(expect.arrayContaining(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']));
    expect(client.Properties!.EnableTokenRevocation).toBe(true);
    expect(client.Properties!.PreventUserExistenceErrors).toBe('ENABLED');
    expect(client.Properties!.RefreshTokenValidity).toBe(30 * 24 * 60);
  });

  it('gives the pool and client to the /auth functions only, and the pages origin to every dashboard function', () => {
    const functions = ofType('AWS::Lambda::Function');
    const envOf = (entry: string) => functions.find(([, f]) => f.Properties!.Description === entry)?.[1].Properties!.Environment?.Variables ?? {};
    const authEntries = new Set(Object.values(ROUTES).filter((r) => r.path.startsWith('/auth/')).map((r) => r.entry));
    // One function serves the eight /auth routes (lib/http/route-group.ts).
    expect(authEntries).toEqual(new Set(['functions/auth/index.ts']));
    for (const entry of authEntries) {
      const env = envOf(entry);
      expect(refId(env.COGNITO_USER_POOL_ID), entry).toBe(one('AWS::Cognito::UserPool')[0]);
      expect(refId(env.COGNITO_CLIENT_ID), entry).toBe(one('AWS::Cognito::UserPoolClient')[0]);
      expect(JSON.stringify(env.DASHBOARD_ORIGINS), entry).toContain(one('AWS::CloudFront::Distribution')[0]);
    }
    expect(JSON.stringify(envOf('functions/dashboard/index.ts').DASHBOARD_ORIGINS)).toContain(one('AWS::CloudFront::Distribution')[0]);
    for (const [, f] of functions.filter(([, f]) => !authEntries.has(f.Properties!.Description))) {
      expect(f.Properties!.Environment?.Variables?.COGNITO_USER_POOL_ID, f.Properties!.Description).toBeUndefined();
    }
  });
});

describe('dashboard pages and the one origin', () => {
  it('keeps the pages in a private, encrypted bucket that only the distribution reads', () => {
    const pages = ofType('AWS::S3::Bucket').find(([id]) => id.startsWith('DashboardPages'))!;
    expect(pages[1].Properties!.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true,
    });
    const policy = ofType('AWS::S3::BucketPolicy').find(([, p]) => refId(p.Properties!.Bucket) === pages[0])![1];
    const reads = (policy.Properties!.PolicyDocument.Statement as { Effect: string; Principal?: { Service?: string }; Action: string | string[] }[])
      .filter((s) => s.Effect === 'Allow');
    expect(reads.some((s) => s.Principal?.Service === 'cloudfront.amazonaws.com' && [s.Action].flat().includes('s3:GetObject'))).toBe(true);
    expect(one('AWS::CloudFront::OriginAccessControl')[1].Properties!.OriginAccessControlConfig.SigningBehavior).toBe('always');
  });

  it('serves /dashboard/* from the bucket with the app fallback and everything else from the API, uncached, over https', () => {
    const [, dist] = one('AWS::CloudFront::Distribution');
    const config = dist.Properties!.DistributionConfig;
    const originOf = (id: string) => config.Origins.find((o: { Id: string }) => o.Id === id);
    const api = originOf(config.DefaultCacheBehavior.TargetOriginId);
    expect(api.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    expect(JSON.stringify(api.DomainName)).toContain(one('AWS::ApiGatewayV2::Api')[0]);
    expect(config.DefaultCacheBehavior.AllowedMethods).toHaveLength(7);
    // Managed policies: CachingDisabled, and AllViewerExceptHostHeader (cookies and headers reach the API).
    expect(config.DefaultCacheBehavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    expect(config.DefaultCacheBehavior.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac');
    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    const [pages] = config.CacheBehaviors;
    expect(pages.PathPattern).toBe('/dashboard/*');
    expect(originOf(pages.TargetOriginId).S3OriginConfig).toBeDefined();
    expect(pages.FunctionAssociations[0].EventType).toBe('viewer-request');
    expect(pages.ViewerProtocolPolicy).toBe('redirect-to-https');
    const [, fn] = one('AWS::CloudFront::Function');
    expect(fn.Properties!.FunctionCode).toContain("'/dashboard/index.html'");
  });
});
