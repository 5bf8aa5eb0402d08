import { Duration } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { planRouteFunctions, type RouteEntry, type RouteFunctionPlan } from '../entry-needs.js';
import { entryConstructId, type PlatformFunction, type PlatformFunctionProps } from './api-function.js';
import { bindAgentTestQueue, bindDispatchQueue, bindKnowledge, bindRateLimits, bindRecordings, bindTable, bindTwilioCredentials, bindWebhookQueue } from './bindings.js';
import type { ApiEdge } from './edge.js';

/** What the route functions are bound to, and how the stack makes a function (its defaults and environment). */
export interface RouteFunctionsProps {
  readonly table: dynamodb.TableV2;
  readonly recordings: s3.Bucket;
  readonly dispatchQueue: sqs.Queue;
  readonly webhookQueue: sqs.Queue;
  readonly knowledgeQueue: sqs.Queue;
  readonly agentTestQueue: sqs.Queue;
  readonly twilioCredentials: secretsmanager.ISecret;
  readonly api: apigw.HttpApi;
  readonly edge: ApiEdge;
  readonly newFunction: (scope: Construct, id: string, props: PlatformFunctionProps) => PlatformFunction;
}

/**
 * One Lambda per handler module of the route table (under the construct `Routes`), each bound to exactly
 * what its ENTRY_NEEDS name, and its routes added to the API with their authorizer.
 */
export function addRouteFunctions(scope: Construct, props: RouteFunctionsProps): { functions: Map<RouteEntry, PlatformFunction>; plans: RouteFunctionPlan[] } {
  const routeScope = new Construct(scope, 'Routes');
  const routeFunctions = new Map<RouteEntry, PlatformFunction>();
  const plans = planRouteFunctions();
  // Route functions with the same needs share one role: the rights are the same by construction, and a
  // role and its policy per function would cost the stack two of CloudFormation's 500 resources each.
  const roles = new Map<string, iam.Role>();
  const roleFor = (needs: object, counted: boolean): iam.Role => {
    const { timeoutSeconds: _t, memoryMiB: _m, bundleFiles: _b, bundleModules: _bm, ...rights } = needs as Record<string, unknown>;
    const signature = JSON.stringify({ ...rights, counted });
    let role = roles.get(signature);
    if (!role) {
      role = new iam.Role(routeScope, `Role${roles.size + 1}`, {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
      });
      roles.set(signature, role);
    }
    return role;
  };
  for (const { entry, routes, needs } of plans) {
    const id = entryConstructId(entry);
    const counted = needs.table !== 'none' && routes.some((r) => r.auth || r.ipLimit);
    const fn = props.newFunction(routeScope, id, {
      entry,
      role: roleFor(needs, counted),
      ...(needs.timeoutSeconds === undefined ? {} : { timeout: Duration.seconds(needs.timeoutSeconds) }),
      ...(needs.memoryMiB === undefined ? {} : { memoryMiB: needs.memoryMiB }),
      ...(needs.bundleFiles === undefined ? {} : { bundleFiles: needs.bundleFiles }),
      ...(needs.bundleModules === undefined ? {} : { bundleModules: needs.bundleModules }),
    });
    if (needs.table !== 'none') bindTable(fn, props.table, needs.table);
    // Keyed and per-IP-limited routes count each request in the table (lib/services/rate-limits.ts).
    if (counted) bindRateLimits(fn, props.table);
    if (needs.recordings) bindRecordings(fn, props.recordings, needs.recordings);
    if (needs.dispatch) bindDispatchQueue(fn, props.dispatchQueue, needs.dispatch);
    if (needs.webhooks) bindWebhookQueue(fn, props.webhookQueue);
    if (needs.twilioCredentials) bindTwilioCredentials(fn, props.twilioCredentials);
    if (needs.knowledge) bindKnowledge(fn, props.recordings, props.knowledgeQueue);
    if (needs.agentTests) bindAgentTestQueue(fn, props.agentTestQueue);
    // One integration per function, shared by its routes.
    // One invoke permission per function for the whole API, not one per route (CloudFormation's 500 again).
    const integration = new HttpLambdaIntegration(`${id}Integration`, fn.function, { scopePermissionToRoute: false });
    for (const route of routes) {
      const authorizer = props.edge.authorizerFor(route);
      props.api.addRoutes({ path: route.path, methods: [apigw.HttpMethod[route.method]], integration, ...(authorizer ? { authorizer } : {}) });
    }
    routeFunctions.set(entry, fn);
  }
  return { functions: routeFunctions, plans };
}
