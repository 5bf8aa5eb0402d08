import { type CfnElement, type Stack, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';

/**
 * The cdk-nag AwsSolutions findings this stack keeps on purpose, each with its reason
 * (test/offline/nag.test.ts runs the pack and fails on anything not listed here). Acknowledged on the
 * narrowest construct that carries the finding, never on the whole stack, so a new resource of the same kind
 * is checked afresh.
 */
export function acknowledgeNagFindings(stack: Stack, parts: NagParts): void {
  const ack = (scope: IConstruct, id: string, reason: string) => Validations.of(scope).acknowledge({ id: `AwsSolutions-${id}`, reason });
  const all = stack.node.findAll();

  for (const fn of all.filter((c): c is lambda.Function => c instanceof lambda.Function)) {
    ack(fn, 'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      "Lambda's own policy for writing its logs; each function logs to its own group (api-function.ts) and the policy grants nothing else.");
    ack(fn, 'IAM5[Resource::*]', 'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions.');
    ack(fn, 'L1', 'nodejs22.x is the runtime every bundle targets and the benchmarks measure (lib/infra/bundling.ts); it is supported until 2027. Moving is one constant.');
  }
  // The route functions' shared roles (stack.ts: one per set of needs) carry what a function's own role would.
  for (const role of all.filter((c): c is iam.Role => c instanceof iam.Role && /\/Routes\/Role\d+$/.test(c.node.path))) {
    ack(role, 'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      "Lambda's own policy for writing logs, on the role the route functions with the same needs share; it grants nothing else.");
    ack(role, 'IAM5[Resource::*]', 'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions.');
  }
  for (const role of all.filter((c): c is iam.Role => c instanceof iam.Role)) {
    ack(role, `IAM5[Resource::<${stack.getLogicalId(parts.tableResource)}.Arn>/index/*]`,
      "The table's read grant covers its global indexes (GSI1, ...), which list pages query; the index names come from the model.");
  }
  for (const route of all.filter((c): c is apigw.HttpRoute => c instanceof apigw.HttpRoute)) {
    if (route.node.tryFindChild('Resource') && !(route.node.defaultChild as apigw.CfnRoute).authorizerId) {
      ack(route, 'APIG4',
        'Public by design (routes.ts, auth: false): docs, Twilio webhooks (each checks X-Twilio-Signature), meeting pages (single-use tokens), the widget (widget key and Origin checked by the handler); each is limited per source IP.');
    }
  }
  for (const secret of parts.vendorSecrets) {
    ack(secret, 'SMG4', 'Vendor-issued credentials (Twilio, LLM, STT and TTS keys) rotate at the vendor; an operator puts the new value (docs/deploy.md). No Lambda can mint them.');
  }
  ack(parts.dataKey, 'SMG4', 'The data key seals stored secrets; rotating its value in place would make every sealed value unreadable. Key versions and rotation are the data-key work of issue 17 (per-workspace keys).');
  ack(parts.recordings, 'S1', 'Objects leave only through presigned URLs the API issues and logs per request (history/recording-url); server access logs would need a second bucket and duplicate that trail.');
  ack(parts.streaming.vpc, 'VPC7', 'The VPC holds only the streaming tasks behind their security group; the ALB and the service log every stream. Flow logs would cost per GB of call audio for no question they answer.');
  ack(parts.streaming.loadBalancer, 'ELB2', 'The streams are long WebSockets (one access-log line at the end of a call); the service logs each stream with its call id as it opens and closes.');
  ack(parts.streaming.loadBalancer, 'EC23', 'Twilio Media Streams and browsers connect from anywhere; the listener takes only 443 (80 for a test deployment without a certificate) and the tasks accept only the ALB.');
  ack(parts.streaming.cluster, 'ECS4', 'The service publishes its own ActiveSessions metric and the ALB its target metrics; Container Insights would add per-task metric charges for what the dashboard already shows.');
  ack(parts.streaming.taskDefinition, 'ECS2', 'The environment holds only names and settings (table, bucket, queue URLs, base URL); the vendor keys come from Secrets Manager as a container secret.');
  ack(parts.streaming.taskDefinition, 'IAM5[Resource::<' + stack.getLogicalId(parts.recordingsResource) + '.Arn>/recordings/*]',
    'The task writes one object per call under recordings/ (key chosen per call id); the prefix is the narrowest bound.');
  ack(parts.streaming.taskDefinition, 'IAM5[Action::s3:Abort*]', "CDK's put grant: s3:AbortMultipartUpload lets the upload of a long recording be cancelled; on recordings/* only.");
  for (const fn of parts.recordingReaders) {
    for (const finding of ['Resource::<' + stack.getLogicalId(parts.recordingsResource) + '.Arn>/*', 'Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*']) {
      ack(fn, `IAM5[${finding}]`, "CDK's read grant on the recordings bucket: presigning a download URL carries the signer's rights, for any recording of the workspace (the handler checks the workspace).");
    }
  }
  // Knowledge bases (docs/knowledge.md, "Storage and engine"): every key is built from the caller's workspace.
  for (const user of parts.knowledgeUsers) {
    const findings = ['Resource::<' + stack.getLogicalId(parts.recordingsResource) + '.Arn>/workspaces/*', 'Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*', 'Action::s3:Abort*', 'Action::s3:DeleteObject*'];
    for (const finding of findings) {
      ack(user, `IAM5[${finding}]`, "CDK's grant on the knowledge objects, workspaces/* only: each key is built from the caller's workspace (lib/store/knowledge-objects.ts), and a base's documents are listed and deleted by prefix.");
    }
  }
  ack(parts.streaming.taskDefinition, 'IAM5[Resource::*]', "ECR's GetAuthorizationToken (the execution role pulling the image) supports no resource-level permission.");
  acknowledgeDashboard(ack, parts.dashboard);
}

/** The dashboard's sign-in, pages bucket and CloudFront (lib/infra/constructs/dashboard.ts, docs/dashboard.md). */
function acknowledgeDashboard(ack: (scope: IConstruct, id: string, reason: string) => void, dashboard: NagParts['dashboard']): void {
  ack(dashboard.userPool, 'COG2', 'MFA is not offered yet: the sign-in endpoint refuses Cognito challenges (challenge_unsupported); docs/dashboard.md lists it as left to do.');
  ack(dashboard.userPool, 'COG8', "The Plus tier's threat protection is priced per user; account attempts are limited per source IP by the API (RATE_LIMIT_ACCOUNT).");
  ack(dashboard.bucket, 'S1', 'The bucket holds only the built dashboard files, read by CloudFront alone (origin access control); there is no per-object trail worth a second bucket.');
  ack(dashboard.distribution, 'CFR1', 'Our users and their operators sign in from anywhere; no country is excluded.');
  ack(dashboard.distribution, 'CFR2', 'The API behind it has stage throttling and per-IP limits on account attempts; the optional WAF (context waf) guards the streaming load balancer.');
  ack(dashboard.distribution, 'CFR3', 'Pages are static build output; the API requests it forwards are logged by the HTTP API access log.');
  ack(dashboard.distribution, 'CFR4', "With CloudFront's default *.cloudfront.net certificate the viewer TLS policy cannot be raised; a custom domain with its own certificate sets TLSv1.2_2021.");
}

/** The constructs {@link acknowledgeNagFindings} needs by name. */
export interface NagParts {
  readonly tableResource: CfnElement;
  readonly recordingsResource: CfnElement;
  readonly recordings: IConstruct;
  readonly dataKey: IConstruct;
  readonly vendorSecrets: readonly IConstruct[];
  readonly recordingReaders: readonly IConstruct[];
  /** What reads or writes knowledge objects: the knowledge routes' role, the ingestion consumer, the streaming task. */
  readonly knowledgeUsers: readonly IConstruct[];
  readonly streaming: { vpc: IConstruct; loadBalancer: IConstruct; cluster: IConstruct; taskDefinition: IConstruct };
  readonly dashboard: { userPool: IConstruct; bucket: IConstruct; distribution: IConstruct };
}
