/**
 * Invariant: the streaming service deploys as an ARM64 Fargate service behind an internet-facing ALB whose
 * WebSocket idle timeout and deregistration delay outlast the longest call the platform places; the ALB
 * checks `/health`; the service scales on exactly the `ActiveSessions` metric the service itself publishes
 * (same namespace, name and dimension value); its task role holds only its bindings; every function's
 * STREAM_URL points at it (wss with a certificate); and the image asset is staged from the allow-list, so
 * synth stays offline and never copies node_modules or cdk.out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { PROJECT_ROOT } from '../../lib/infra/constructs/api-function.js';
import { STREAMING_SERVICE } from '../../lib/infra/constructs/streaming-service.js';
import { activeSessionsLine } from '../../streaming-service/src/metrics.js';
import { DEFAULT_SESSION_OPTIONS } from '../../streaming-service/src/call/types.js';
import { asArray, handlerFunctions, refId, synthPlatform, type Resource, type Statement } from '../support/stack.js';

/** Synthesizes without bundling the Lambdas; the image is only staged. */
const synth = synthPlatform;

let built: ReturnType<typeof synth>;
let resources: Record<string, Resource>;
const ofType = (type: string, from = resources) => Object.entries(from).filter(([, r]) => r.Type === type);
const only = (type: string, from = resources) => {
  const found = ofType(type, from);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const attribute = (r: Resource, key: string) =>
  (asArray(r.Properties!.LoadBalancerAttributes ?? r.Properties!.TargetGroupAttributes) as { Key: string; Value: string }[]).find(
    (a) => a.Key === key,
  )?.Value;
const statementsOf = (roleId: string, from = resources): Statement[] =>
  ofType('AWS::IAM::Policy', from)
    .filter(([, p]) => asArray(p.Properties!.Roles).some((r) => refId(r) === roleId))
    .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement as Statement[]);
const containerEnv = (from = resources) => {
  const [, task] = only('AWS::ECS::TaskDefinition', from);
  const [container] = task.Properties!.ContainerDefinitions as Record<string, any>[];
  return Object.fromEntries((container!.Environment as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value]));
};

beforeAll(() => {
  built = synth();
  resources = built.resources;
});

describe('Fargate service', () => {
  it('runs one ARM64 Fargate task definition of the documented size, in public subnets with public IPs', () => {
    const [, task] = only('AWS::ECS::TaskDefinition');
    expect(task.Properties!.RuntimePlatform).toEqual({ CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' });
    expect(task.Properties!.RequiresCompatibilities).toEqual(['FARGATE']);
    expect(task.Properties!.Cpu).toBe(String(STREAMING_SERVICE.cpu));
    expect(task.Properties!.Memory).toBe(String(STREAMING_SERVICE.memoryMiB));
    const [container] = task.Properties!.ContainerDefinitions as Record<string, any>[];
    expect(container!.PortMappings).toEqual([{ ContainerPort: STREAMING_SERVICE.containerPort, Protocol: 'tcp' }]);
    // The container listens where the task maps: the stack tells it the port, not a matching default.
    expect(containerEnv().STREAMING_PORT).toBe(String(STREAMING_SERVICE.containerPort));
    expect(containerEnv()).not.toHaveProperty('PORT');
    // The SIGKILL deadline stays above the drain the service runs on SIGTERM.
    expect(container!.StopTimeout * 1000).toBeGreaterThan(Number(containerEnv().DRAIN_TIMEOUT_MS));
    expect(container!.ReadonlyRootFilesystem).toBe(true);

    const [, service] = only('AWS::ECS::Service');
    expect(service.Properties!.LaunchType).toBe('FARGATE');
    expect(service.Properties!.NetworkConfiguration.AwsvpcConfiguration.AssignPublicIp).toBe('ENABLED');
    expect(service.Properties!.DeploymentConfiguration.MinimumHealthyPercent).toBe(100);
    // No NAT gateway: the documented choice (public IPs, inbound only from the ALB).
    expect(ofType('AWS::EC2::NatGateway')).toHaveLength(0);
  });

  it('accepts traffic to the tasks only from the load balancer and, for live call forwarding, from one another', () => {
    const [serviceId, service] = only('AWS::ECS::Service');
    const taskSg = refId(asArray(service.Properties!.NetworkConfiguration.AwsvpcConfiguration.SecurityGroups)[0]);
    const [albId, alb] = only('AWS::ElasticLoadBalancingV2::LoadBalancer');
    const albSg = refId(asArray(alb.Properties!.SecurityGroups)[0]);
    expect(taskSg && albSg).toBeTruthy();
    const taskIngress = ofType('AWS::EC2::SecurityGroupIngress').filter(([, r]) => refId(r.Properties!.GroupId) === taskSg);
    expect(taskIngress.length, serviceId).toBeGreaterThan(0);
    for (const [, rule] of taskIngress) {
      expect([albSg, taskSg], albId).toContain(refId(rule.Properties!.SourceSecurityGroupId));
      expect(rule.Properties!.FromPort).toBe(STREAMING_SERVICE.containerPort);
      expect(rule.Properties!.ToPort).toBe(STREAMING_SERVICE.containerPort);
    }
    // A control request or listener that reached another task is forwarded to the call's (docs/live-calls.md).
    expect(taskIngress.filter(([, r]) => refId(r.Properties!.SourceSecurityGroupId) === taskSg)).toHaveLength(1);
    const [, taskGroup] = Object.entries(resources).find(([id]) => id === taskSg)!;
    expect(asArray(taskGroup.Properties!.SecurityGroupIngress)).toEqual([]);
  });
});

describe('load balancer', () => {
  it('keeps WebSockets open longer than the longest call, and drains a stopped task as long', () => {
    const [, alb] = only('AWS::ElasticLoadBalancingV2::LoadBalancer');
    expect(alb.Properties!.Scheme).toBe('internet-facing');
    const idle = Number(attribute(alb, 'idle_timeout.timeout_seconds'));
    expect(idle).toBeGreaterThanOrEqual(3600);
    expect(idle).toBeLessThanOrEqual(4000); // the ALB's maximum
    // The longest call: what the platform asks the provider for, and the session's own cut-off.
    const placed = (loadConfig({}) as Record<string, unknown>).CALL_MAX_DURATION_SECONDS;
    expect(typeof placed).toBe('number');
    const maxCall = Math.max(Number(placed), DEFAULT_SESSION_OPTIONS.maxDurationMs / 1000);
    expect(idle).toBeGreaterThan(maxCall);

    const [, tg] = only('AWS::ElasticLoadBalancingV2::TargetGroup');
    expect(Number(attribute(tg, 'deregistration_delay.timeout_seconds'))).toBeGreaterThanOrEqual(maxCall);
    // A meeting page that reconnects returns to the task holding its call (the ALB's cookie, an hour).
    expect(attribute(tg, 'stickiness.enabled')).toBe('true');
    expect(attribute(tg, 'stickiness.type')).toBe('lb_cookie');
    expect(attribute(tg, 'stickiness.lb_cookie.duration_seconds')).toBe('3600');
  });

  it('health-checks /health on the container port', () => {
    const [, tg] = only('AWS::ElasticLoadBalancingV2::TargetGroup');
    expect(tg.Properties!.HealthCheckPath).toBe('/health');
    expect(tg.Properties!.Matcher).toEqual({ HttpCode: '200' });
    expect(tg.Properties!.Port).toBe(STREAMING_SERVICE.containerPort);
    expect(tg.Properties!.TargetType).toBe('ip');
    const [, task] = only('AWS::ECS::TaskDefinition');
    expect(JSON.stringify(task.Properties!.ContainerDefinitions[0].HealthCheck.Command)).toContain('/health');
  });

  it('listens on plain HTTP without a certificate, and only HTTPS with one; STREAM_URL and WEB_STREAM_URL follow', () => {
    const [, plain] = only('AWS::ElasticLoadBalancingV2::Listener');
    expect(plain.Properties!.Protocol).toBe('HTTP');
    const [albId] = only('AWS::ElasticLoadBalancingV2::LoadBalancer');
    const fns = handlerFunctions(resources);
    expect(fns.length).toBeGreaterThan(0);
    for (const [id, fn] of fns) {
      expect(fn.Properties!.Environment.Variables.STREAM_URL, id).toEqual({
        'Fn::Join': ['', ['ws://', { 'Fn::GetAtt': [albId, 'DNSName'] }, '/media-stream']],
      });
      expect(fn.Properties!.Environment.Variables.WEB_STREAM_URL, id).toEqual({
        'Fn::Join': ['', ['ws://', { 'Fn::GetAtt': [albId, 'DNSName'] }, '/web-stream']],
      });
    }

    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
    const tls = synth({ streamingTls: { certificateArn, domain: 'stream.example.com' } }).resources;
    const [, secure] = only('AWS::ElasticLoadBalancingV2::Listener', tls);
    expect(secure.Properties!.Protocol).toBe('HTTPS');
    expect(secure.Properties!.Port).toBe(443);
    expect(secure.Properties!.Certificates).toEqual([{ CertificateArn: certificateArn }]);
    for (const [id, fn] of handlerFunctions(tls)) {
      expect(fn.Properties!.Environment.Variables.STREAM_URL, id).toBe('wss://stream.example.com/media-stream');
      expect(fn.Properties!.Environment.Variables.WEB_STREAM_URL, id).toBe('wss://stream.example.com/web-stream');
    }
  });
});

describe('autoscaling', () => {
  it('tracks the ActiveSessions metric the service publishes, per task', () => {
    const env = containerEnv();
    expect(env.METRICS_MODE).toBe('emf');
    const policies = ofType('AWS::ApplicationAutoScaling::ScalingPolicy').map(([, p]) => p);
    for (const p of policies) expect(p.Properties!.PolicyType).toBe('TargetTrackingScaling');
    const policy = policies.find((p) => p.Properties!.TargetTrackingScalingPolicyConfiguration.CustomizedMetricSpecification)!;
    const tracking = policy.Properties!.TargetTrackingScalingPolicyConfiguration;
    expect(tracking.TargetValue).toBe(STREAMING_SERVICE.targetSessionsPerTask);
    const spec = tracking.CustomizedMetricSpecification;
    expect(spec.Statistic).toBe('Average');

    // The line the service prints with the container's settings names the very metric scaled on.
    const line = JSON.parse(
      activeSessionsLine({ METRICS_NAMESPACE: String(env.METRICS_NAMESPACE), METRICS_SERVICE: String(env.METRICS_SERVICE) }, 7, 0),
    ) as Record<string, any>;
    const directive = line._aws.CloudWatchMetrics[0];
    expect(spec.Namespace).toBe(directive.Namespace);
    expect(spec.MetricName).toBe(directive.Metrics[0].Name);
    const dimension = directive.Dimensions[0][0] as string;
    expect(spec.Dimensions).toEqual([{ Name: dimension, Value: line[dimension] }]);

    // Beside it, CPU: a task can be CPU-bound below its session target (heavy calls).
    const cpu = policies.map((p) => p.Properties!.TargetTrackingScalingPolicyConfiguration).filter((c) => c.PredefinedMetricSpecification);
    expect(cpu).toEqual([expect.objectContaining({
      PredefinedMetricSpecification: { PredefinedMetricType: 'ECSServiceAverageCPUUtilization' },
      TargetValue: STREAMING_SERVICE.targetCpuPercent,
    })]);
    expect(policies).toHaveLength(2);

    const [, target] = only('AWS::ApplicationAutoScaling::ScalableTarget');
    expect(target.Properties!.MinCapacity).toBeGreaterThanOrEqual(2);
    expect(target.Properties!.MaxCapacity).toBeGreaterThan(target.Properties!.MinCapacity);
  });
});

describe('task permissions', () => {
  it('lets the task role reach only the table, recordings/* puts, workspaces/* reads (knowledge), the two secrets and the webhook queue, and names each', () => {
    const [, task] = only('AWS::ECS::TaskDefinition');
    const env = containerEnv();
    const [tableId] = only('AWS::DynamoDB::GlobalTable');
    // The recordings bucket (the dashboard's pages bucket is the other one, which the task never reaches).
    const bucketId = refId(env.BUCKET_NAME);
    expect(ofType('AWS::S3::Bucket').map(([id]) => id)).toContain(bucketId);
    expect(bucketId).toMatch(/^Recordings/);
    expect(refId(env.TABLE_NAME)).toBe(tableId);
    const secretIds = ofType('AWS::SecretsManager::Secret').map(([id]) => id);
    expect(secretIds).toContain(refId(env.SECRET_KEY_ARN));

    const statements = statementsOf(refId(task.Properties!.TaskRoleArn)!);
    const actions = statements.flatMap((s) => asArray(s.Action));
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 's3:PutObject', 'secretsmanager:GetSecretValue']));
    for (const a of actions) expect(a, a).toMatch(/^(dynamodb|s3|secretsmanager|sqs):/);
    // SQS: sending webhook deliveries (call.started, call.ended, call.transfer, call.analyzed) and nothing else.
    const [webhookQueueId] = ofType('AWS::SQS::Queue').find(([id]) => id.startsWith('WebhookDeliveries'))!;
    expect(refId(env.WEBHOOK_QUEUE_URL)).toBe(webhookQueueId);
    for (const st of statements.filter((x) => asArray(x.Action).some((a) => a.startsWith('sqs:')))) {
      expect(asArray(st.Action).filter((a) => a.startsWith('sqs:')).sort()).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
      expect(asArray(st.Resource).map((r) => refId(r))).toEqual([webhookQueueId]);
    }
    expect(actions.some((a) => a.startsWith('s3:Delete'))).toBe(false);
    for (const s of statements) {
      const text = JSON.stringify(s.Resource);
      expect(asArray(s.Resource)).not.toContain('*');
      // Recordings are written, never read; knowledge segments (docs/knowledge.md) are read, never written.
      if (asArray(s.Action).some((a) => a.startsWith('s3:Put'))) expect(text).toContain('/recordings/*');
      if (asArray(s.Action).some((a) => a.startsWith('s3:Get'))) {
        expect(text).toContain('/workspaces/*');
        expect(text).not.toContain('/recordings/*');
      }
      if (asArray(s.Action).some((a) => a.startsWith('s3:'))) expect(text).toMatch(/\/(recordings|workspaces)\/\*/);
      if (asArray(s.Action).some((a) => a.startsWith('dynamodb:'))) expect(text).toContain(tableId);
      if (asArray(s.Action).some((a) => a.startsWith('secretsmanager:'))) {
        for (const r of asArray(s.Resource)) expect(secretIds.concat(String(env.TWILIO_SECRET_ARN))).toContain(refId(r) ?? String(r));
      }
    }
  });

  it('lets the execution role only pull the image, write the service log group and read the vendor keys', () => {
    const [, task] = only('AWS::ECS::TaskDefinition');
    const [logGroupId] = ofType('AWS::Logs::LogGroup').find(([id]) => id.startsWith('Streaming'))!;
    const statements = statementsOf(refId(task.Properties!.ExecutionRoleArn)!);
    for (const s of statements) {
      for (const a of asArray(s.Action)) {
        if (a === 'ecr:GetAuthorizationToken') continue; // ECR's token call has no resource-level permission
        // ECS reads the vendor-key secret into VENDOR_KEYS when it starts the task: that secret only.
        if (a.startsWith('secretsmanager:')) {
          expect(asArray(s.Resource).map(refId)).toEqual([ofType('AWS::SecretsManager::Secret').find(([id]) => id.startsWith('VendorKeys'))![0]]);
          continue;
        }
        expect(a, a).toMatch(/^(ecr|logs):/);
        expect(asArray(s.Resource)).not.toContain('*');
        if (a.startsWith('logs:')) expect(JSON.stringify(s.Resource)).toContain(logGroupId);
      }
    }
  });
});

describe('container image', () => {
  it('is staged from the allow-list for linux/arm64, without node_modules or cdk.out', () => {
    const assembly = built.app.synth();
    // The asset manifest (what `cdk deploy` builds and publishes) lists the image and its staged folder.
    const manifests = assembly.artifacts.filter((a) => a.id.startsWith('Test.assets'));
    expect(manifests).toHaveLength(1);
    const manifest = JSON.parse(readFileSync(join(assembly.directory, `${manifests[0]!.id}.json`), 'utf8')) as {
      dockerImages?: Record<string, { source: { directory: string; dockerFile?: string; platform?: string } }>;
    };
    const images = Object.values(manifest.dockerImages ?? {});
    expect(images).toHaveLength(1);
    const image = images[0]!.source;
    expect(image.platform).toBe('linux/arm64');
    expect(image.dockerFile).toBe('streaming-service/Dockerfile');
    const dir = join(assembly.directory, image.directory);
    for (const needed of ['package.json', 'package-lock.json', 'tsconfig.json', 'streaming-service/Dockerfile', 'streaming-service/src/main.ts', 'lib/config.ts']) {
      expect(existsSync(join(dir, needed)), needed).toBe(true);
    }
    for (const never of ['node_modules', 'cdk.out', '.git', 'test', 'functions', 'bench']) expect(existsSync(join(dir, never)), never).toBe(false);
  });

  it('serves the port, health path and user the stack expects', () => {
    const dockerfile = readFileSync(join(PROJECT_ROOT, 'streaming-service', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM \$\{NODE_IMAGE\}$/m);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:22-/m);
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${STREAMING_SERVICE.containerPort}$`, 'm'));
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK[\s\S]*\/health/m);
    // The image's own check probes the port the service listens on (the variable the stack sets).
    expect(dockerfile).toMatch(/^HEALTHCHECK[\s\S]*process\.env\.STREAMING_PORT/m);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
  });
});
