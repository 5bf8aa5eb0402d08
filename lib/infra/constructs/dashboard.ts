import { CfnOutput, Duration, Fn, RemovalPolicy } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { ROUTES } from '../routes.js';
import type { BindTarget } from './bindings.js';
import { PASSWORD_POLICY } from '../../domain/password-policy.js';

/** Options of {@link Dashboard}. */
export interface DashboardProps {
  /** The HTTP API: CloudFront sends every path but `/dashboard/*` to it, so pages, `/api` and `/auth` share one origin. */
  readonly api: apigw.HttpApi;
  /**
   * The built pages (`index.html` and `assets/`, built with base `/dashboard/`). Without it the bucket is
   * made empty, to be filled by a later deploy (a synth must not need the front-end build).
   */
  readonly pagesDir?: string;
  /** The pages' Content-Security-Policy header (the page's own, docs/dashboard.md "Front end"). */
  readonly contentSecurityPolicy?: string;
}

/**
 * Refresh tokens live 30 days (the refresh cookie's Max-Age, lib/http/session-cookie.ts); the ID token is
 * read once, right after it is issued, so its shortest lifetime serves; session keys are the platform's own.
 */
export const DASHBOARD_TOKENS = {
  refreshTokenValidity: Duration.days(30),
  idTokenValidity: Duration.minutes(5),
  accessTokenValidity: Duration.minutes(5),
} as const;

/**
 * A CloudFront Function on the pages' behavior: the app's own paths (`/dashboard/agents/agt_…`, a reload
 * or a deep link) are not files in the bucket, so every path without a file extension gets index.html.
 */
const SPA_FALLBACK = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/dashboard/index.html';
  return request;
}`;

/**
 * The dashboard on AWS (docs/dashboard.md, "Where it runs"): a Cognito user pool and app client for sign-in,
 * a private S3 bucket with the built pages, and one CloudFront distribution in front of both the bucket
 * (`/dashboard/*`) and the HTTP API (everything else, `/api/*` and `/auth/*` included, never cached, every
 * header but Host and every cookie forwarded), so the refresh cookie and the API share the page's origin.
 */
export class Dashboard extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** The pages' origin, `https://<distribution domain>`: the CSRF check accepts it, invitation links use it. */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);

    this.userPool = new cognito.UserPool(this, 'Users', {
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: { ...PASSWORD_POLICY },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      // People's accounts outlive any one deployment, as the table does.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.client = this.userPool.addClient('Dashboard', {
      // The API signs in for the page (USER_PASSWORD_AUTH over TLS); a public client: there is no secret to keep.
      authFlows: { userPassword: true },
      generateSecret: false,
      enableTokenRevocation: true,
      // Unknown emails and wrong passwords answer alike, so the endpoints cannot be used to find accounts.
      preventUserExistenceErrors: true,
      ...DASHBOARD_TOKENS,
    });

    this.bucket = new s3.Bucket(this, 'Pages', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // Kept like the other buckets: emptying it on deletion would take a custom-resource Lambda, for files
      // that a deploy rebuilds anyway.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const apiOrigin = new origins.HttpOrigin(Fn.select(2, Fn.split('/', props.api.apiEndpoint)), {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
    });
    const headers = new cloudfront.ResponseHeadersPolicy(this, 'PageHeaders', {
      securityHeadersBehavior: {
        ...(props.contentSecurityPolicy ? { contentSecurityPolicy: { contentSecurityPolicy: props.contentSecurityPolicy, override: true } } : {}),
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.SAME_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Voice agent platform: dashboard pages and API on one origin',
      defaultBehavior: {
        origin: apiOrigin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        // Every answer of the API is per key or per cookie: nothing may be cached.
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
      additionalBehaviors: {
        '/dashboard/*': {
          origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: headers,
          functionAssociations: [
            {
              eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
              function: new cloudfront.Function(this, 'SpaFallback', { code: cloudfront.FunctionCode.fromInline(SPA_FALLBACK) }),
            },
          ],
        },
      },
    });
    this.origin = `https://${this.distribution.distributionDomainName}`;

    if (props.pagesDir) this.deployPages(props.pagesDir);

    new CfnOutput(this, 'DashboardUrl', { value: `${this.origin}/dashboard/`, description: 'The dashboard (and the API on the same origin)' });
    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId, description: 'COGNITO_USER_POOL_ID for the admin CLI (user create --aws)' });
  }

  /**
   * The built files under `dashboard/`: content-hashed assets cached for good, index.html never (a deploy
   * must show at once), and the distribution's cache of the pages emptied.
   */
  private deployPages(pagesDir: string): void {
    const common = { destinationBucket: this.bucket, destinationKeyPrefix: 'dashboard/', distribution: this.distribution, distributionPaths: ['/dashboard/*'] };
    new s3deploy.BucketDeployment(this, 'Assets', {
      ...common,
      sources: [s3deploy.Source.asset(pagesDir, { exclude: ['index.html'] })],
      cacheControl: [s3deploy.CacheControl.fromString('public, max-age=31536000, immutable')],
      prune: false,
    });
    new s3deploy.BucketDeployment(this, 'Index', {
      ...common,
      sources: [s3deploy.Source.asset(pagesDir, { exclude: ['*', '!index.html'] })],
      cacheControl: [s3deploy.CacheControl.noStore()],
      prune: false,
    });
  }

  /**
   * The environment of the dashboard's route functions: the pool and client for `/auth/*` (they call only
   * Cognito's public operations, so no IAM is granted), and the pages' origin for every dashboard route
   * (the CSRF check, invitation links).
   */
  bindRoutes(functions: ReadonlyMap<string, BindTarget>): void {
    for (const route of Object.values(ROUTES)) {
      const target = functions.get(route.entry);
      if (!target || route.tag !== 'Dashboard') continue;
      target.addEnvironment('DASHBOARD_ORIGINS', this.origin);
      if (!route.path.startsWith('/auth/')) continue;
      target.addEnvironment('COGNITO_USER_POOL_ID', this.userPool.userPoolId);
      target.addEnvironment('COGNITO_CLIENT_ID', this.client.userPoolClientId);
    }
  }
}
