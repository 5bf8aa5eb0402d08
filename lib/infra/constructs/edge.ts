import { Duration } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { RouteSpec } from '../routes.js';
import { PlatformFunction } from './api-function.js';
import { bindKeyLastUsed, bindTable } from './bindings.js';

/**
 * How long API Gateway reuses the authorizer's verdict on one `x-api-key` value. It bounds both costs of a
 * key check: a flood of one bad key invokes the authorizer once per TTL, and a revoked key keeps working for
 * at most this long (docs/api.md, "Authentication"). 30 s: revocation is an incident response, and half a
 * minute is inside any human reaction time; longer saves nothing measurable (one read per key per TTL).
 */
export const API_KEY_AUTHORIZER_TTL = Duration.seconds(30);

/** The header carrying the key: the one credential header of the API (the dashboard's session keys too). */
export const API_KEY_HEADER = 'x-api-key';

/** Routes throttled alike at the stage. */
export type RouteClass = 'keyed' | 'webhook' | 'public';

/** The class of a route of lib/infra/routes.ts. */
export function routeClass(route: Pick<RouteSpec, 'auth' | 'ipLimit'>): RouteClass {
  if (route.auth) return 'keyed';
  return route.ipLimit === 'webhook' ? 'webhook' : 'public';
}

/**
 * Stage throttling per route class (steady requests a second, and the burst bucket), applied per route.
 * These are ceilings for the whole stage, in front of the per-key and per-IP limits the handlers keep
 * (docs/api.md, "Rate limits"): they protect the account's Lambda concurrency (1,000 by default, shared by
 * every function) from any one class, not one client from another.
 */
export const STAGE_THROTTLE: Record<RouteClass, { readonly rateLimit: number; readonly burstLimit: number }> = {
  /** 25 keys at their full 20 requests a second; a route Lambda answers in ~50 ms, so ~25 warm instances. */
  keyed: { rateLimit: 500, burstLimit: 1_000 },
  /** Twilio's webhooks for ~100 call starts and ends a second; a campaign's burst of answers fits the bucket. */
  webhook: { rateLimit: 200, burstLimit: 400 },
  /** Docs, meeting pages, the widget: people clicking, and scrapers, which deserve the least. */
  public: { rateLimit: 100, burstLimit: 200 },
};

/** Options of {@link ApiEdge}. */
export interface ApiEdgeProps {
  readonly api: apigw.HttpApi;
  readonly table: dynamodb.ITableV2;
}

/**
 * What stands between the internet and the route Lambdas: the API-key authorizer (cached per key), stage
 * throttling per route class, and (optionally) AWS WAF.
 */
export class ApiEdge extends Construct {
  readonly authorizerFunction: PlatformFunction;
  readonly authorizer: HttpLambdaAuthorizer;
  private readonly api: apigw.HttpApi;

  constructor(scope: Construct, id: string, props: ApiEdgeProps) {
    super(scope, id);
    this.api = props.api;
    this.authorizerFunction = new PlatformFunction(this, 'ApiKeyAuthorizer', {
      entry: 'functions/auth/authorizer.ts',
      // One GetItem: a second is generous, and a hung check must not hold the request for 10.
      timeout: Duration.seconds(3),
    });
    // Only the key items are read (the `APIKEY#` partition), but a LeadingKeys condition on reads is all or
    // nothing per call; its one write is a key's last use (that attribute only), and it holds no data key or queue.
    bindTable(this.authorizerFunction, props.table, 'read');
    bindKeyLastUsed(this.authorizerFunction, props.table);
    this.authorizer = new HttpLambdaAuthorizer('ApiKey', this.authorizerFunction.function, {
      authorizerName: 'api-key',
      identitySource: [`$request.header.${API_KEY_HEADER}`],
      resultsCacheTtl: API_KEY_AUTHORIZER_TTL,
      responseTypes: [HttpLambdaResponseType.SIMPLE],
    });
    this.logAccess();
  }

  /**
   * One JSON line per request on the default stage: who (source IP), what (route, status), how long, and
   * why an authorizer refused. Never a header: the key is not in any `$context` field written here.
   */
  private logAccess(): void {
    const stage = this.api.defaultStage!.node.defaultChild as apigw.CfnStage;
    const logGroup = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
    stage.accessLogSettings = {
      destinationArn: logGroup.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        time: '$context.requestTimeEpoch',
        route: '$context.routeKey',
        status: '$context.status',
        ms: '$context.responseLatency',
        integrationMs: '$context.integrationLatency',
        bytes: '$context.responseLength',
        authorizerError: '$context.authorizer.error',
        integrationError: '$context.integrationErrorMessage',
      }),
    };
  }

  /** The authorizer a route needs: the key authorizer for keyed routes, none for public ones. */
  authorizerFor(route: Pick<RouteSpec, 'auth'>): apigw.IHttpRouteAuthorizer | undefined {
    return route.auth ? this.authorizer : undefined;
  }

  /**
   * Throttles the default stage: the keyed class as the default, each other route by its class. Call once
   * every route exists: the stage then waits for them (CloudFormation refuses settings for unknown routes).
   */
  throttleRoutes(routes: readonly Pick<RouteSpec, 'method' | 'path' | 'auth' | 'ipLimit'>[]): void {
    const stage = this.api.defaultStage!.node.defaultChild as apigw.CfnStage;
    const keyed = STAGE_THROTTLE.keyed;
    stage.defaultRouteSettings = { throttlingRateLimit: keyed.rateLimit, throttlingBurstLimit: keyed.burstLimit };
    // RouteSettings is a free-form map in the CDK's types: written as CloudFormation spells it.
    stage.routeSettings = Object.fromEntries(
      routes
        .filter((r) => routeClass(r) !== 'keyed')
        .map((r) => [`${r.method} ${r.path}`, { ThrottlingRateLimit: STAGE_THROTTLE[routeClass(r)].rateLimit, ThrottlingBurstLimit: STAGE_THROTTLE[routeClass(r)].burstLimit }]),
    );
    for (const child of this.api.node.findAll()) if (child instanceof apigw.CfnRoute) stage.node.addDependency(child);
  }
}

/**
 * AWS WAF (context `waf=true`) in front of the streaming service's ALB: AWS's IP-reputation and known-bad-
 * input rules, and a per-IP rate rule. HTTP APIs cannot be associated with WAF (only REST APIs, ALBs,
 * CloudFront and a few others can), so the API's protection is the authorizer, stage throttling and the
 * handlers' per-key and per-IP limits; docs/deploy.md says how to put CloudFront with WAF in front of it.
 */
export function protectLoadBalancer(scope: Construct, id: string, loadBalancer: elbv2.IApplicationLoadBalancer): wafv2.CfnWebACL {
  const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
  const managed = (name: string, priority: number) => ({
    name,
    priority,
    overrideAction: { none: {} },
    statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
    visibilityConfig: visibility(name),
  });
  const acl = new wafv2.CfnWebACL(scope, id, {
    scope: 'REGIONAL',
    defaultAction: { allow: {} },
    visibilityConfig: visibility('streaming-edge'),
    rules: [
      managed('AWSManagedRulesAmazonIpReputationList', 0),
      managed('AWSManagedRulesKnownBadInputsRuleSet', 1),
      {
        // Upgrades per address over five minutes; the service's own per-IP limit (RATE_LIMIT_MEDIA_STREAM)
        // stays the precise one, this stops a flood before it reaches a task.
        name: 'per-ip-rate',
        priority: 2,
        action: { block: {} },
        statement: { rateBasedStatement: { limit: 2_000, aggregateKeyType: 'IP' } },
        visibilityConfig: visibility('per-ip-rate'),
      },
    ],
  });
  new wafv2.CfnWebACLAssociation(scope, `${id}Association`, { resourceArn: loadBalancer.loadBalancerArn, webAclArn: acl.attrArn });
  return acl;
}
