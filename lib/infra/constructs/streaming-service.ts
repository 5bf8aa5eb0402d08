import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, IgnoreMode, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { STREAMING_CONTAINER_PORT, type Config } from '../../config.js';
import { ACTIVE_SESSIONS_METRIC, SERVICE_DIMENSION } from '../../observability/session-metrics.js';
import { PROJECT_ROOT } from './api-function.js';
import { bindDataKey, bindRecordings, bindTable, type BindTarget } from './bindings.js';

/**
 * The streaming service's sizing and timing, each with its reason; the template test reads the same values.
 */
export const STREAMING_SERVICE = {
  /**
   * One vCPU: the service is one Node.js process, whose event loop uses one core; a second vCPU would mostly
   * idle (GC helper and libuv threads need little). bench/pipeline.ts measures CPU per call on this code:
   * docs/benchmarks.md "Voice pipeline" has the figures behind 100-200 calls per vCPU.
   */
  cpu: 1024,
  /**
   * 4 GB: a call holds both sides of its audio for the recording (~16 KB/s, ~10 MB for a ten-minute call)
   * plus vendor socket buffers; 200 calls of ten minutes is ~2 GB, leaving room for the WAV built at the end
   * and the V8 heap. 1 vCPU allows 2-8 GB on Fargate; 4 GB is the cheapest size with that headroom.
   */
  memoryMiB: 4096,
  /** Old space for V8; audio buffers live outside the heap, so the rest of the 4 GB stays theirs. */
  maxOldSpaceMiB: 2048,
  /** The port the task maps and the ALB targets; the container is told it as STREAMING_PORT. */
  containerPort: STREAMING_CONTAINER_PORT,
  /**
   * Target tracking keeps the average at 100 active calls per task: half of what one task is sized for, so
   * a burst has headroom while new tasks start (a Fargate task takes ~1 minute to pull, start and pass its
   * health checks).
   */
  targetSessionsPerTask: 100,
  /**
   * CPU target tracking beside the sessions: calls differ in weight (an LLM streaming long answers, noisy
   * audio keeping the VAD busy), so a task can be CPU-bound below 100 calls. One Node.js event loop that
   * averages 60 % over a minute already has seconds of queueing at peaks: audio frames (every 20 ms) start
   * to wait, which callers hear as gaps. Whichever policy asks for more tasks wins.
   */
  targetCpuPercent: 60,
  /** Two tasks, one per AZ: losing an AZ or a task drops at most half the calls in progress. */
  minTasks: 2,
  maxTasks: 20,
  /**
   * ALB idle timeout at the ALB's maximum (4000 s). Twilio sends a media frame every 20 ms, so a live call is
   * never idle; the timeout only has to outlast the longest call so that a quiet stretch (a caller on hold
   * with the line muted upstream) can never cut it. CALL_MAX_DURATION_SECONDS must stay below it.
   */
  idleTimeout: Duration.seconds(4000),
  /**
   * Deregistration delay at the ALB's maximum (3600 s): when a task is stopped (scale-in, deployment), the
   * ALB stops sending it new streams and ECS waits up to this long for its calls to end before SIGTERM. The
   * ALB completes deregistration as soon as the target has no connections left, so a long value costs
   * nothing when calls are short. Calls longer than this are cut by the drain timeout.
   */
  deregistrationDelay: Duration.seconds(3600),
  /**
   * Fargate's maximum: after SIGTERM the task has this long before SIGKILL. The service's DRAIN_TIMEOUT_MS
   * stays below it so histories are written before the kill.
   */
  stopTimeout: Duration.seconds(120),
  drainTimeoutMs: 100_000,
  /** The ALB checks often enough to notice a dead task within ~30 s, without flooding the logs. */
  healthCheckInterval: Duration.seconds(10),
  /** A month of logs is enough for an incident reported late; older logs are cost without use. */
  logRetention: logs.RetentionDays.ONE_MONTH,
  metricsNamespace: 'VoiceAgentPlatform/Streaming',
} as const;

/** The streaming service's optional public endpoint with TLS (Twilio only connects to `wss://`). */
export interface StreamingTls {
  /** An ACM certificate in the stack's region covering `domain`. */
  readonly certificateArn: string;
  /** The DNS name (CNAME or alias to the ALB, created by you) that Twilio connects to. */
  readonly domain: string;
}

/** Options of {@link StreamingService}. */
export interface StreamingServiceProps {
  readonly table: dynamodb.ITableV2;
  readonly recordings: s3.IBucket;
  readonly dataKey: secretsmanager.ISecret;
  /** The platform's Twilio account secret (`{accountSid, authToken}`), when the stack holds one. */
  readonly twilioSecret?: secretsmanager.ISecret;
  /** PUBLIC_BASE_URL of the platform (webhooks and links built during a call). */
  readonly publicBaseUrl: string;
  /** Without it the ALB listens on plain HTTP port 80 and {@link StreamingService.streamUrl} is `ws://`. */
  readonly tls?: StreamingTls;
  /** Overrides of {@link STREAMING_SERVICE}.maxTasks (a stage that must stay small). */
  readonly maxTasks?: number;
  /**
   * The platform's vendor keys as one JSON secret (`{"OPENAI_API_KEY": "..."}`), mapped whole into the
   * container's VENDOR_KEYS (lib/config.ts spreads it): a new field needs no change here, only a new task.
   */
  readonly vendorKeys?: secretsmanager.ISecret;
  /** METRICS_STACK: the `Stack` dimension of the call-outcome metrics. */
  readonly metricsStack?: string;
}

/**
 * The lines of streaming-service/.dockerignore as CDK asset excludes: one list decides what is hashed,
 * staged and sent to Docker.
 */
function dockerIgnore(): string[] {
  return readFileSync(join(PROJECT_ROOT, 'streaming-service', '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/**
 * The streaming service on Fargate behind an internet-facing ALB:
 *
 * - VPC: two AZs, public subnets only, no NAT gateway. Tasks get public IPs for their outbound traffic
 *   (vendors, Twilio, AWS APIs) and accept inbound only from the ALB's security group. A NAT gateway per AZ
 *   would cost ~$65/month before traffic and add a hop to every vendor packet for no protection the
 *   security group does not give. DynamoDB and S3 go through free gateway endpoints instead.
 * - Fargate, ARM64 (Graviton: cheaper per vCPU-hour; the image has no native modules), sized by
 *   {@link STREAMING_SERVICE}, scaled on the `ActiveSessions` metric the service publishes as EMF log lines.
 * - The task role holds exactly the bindings: the table (read-write: agents, tools, contacts in; history
 *   out), `recordings/*` put, the data key and, when given, the Twilio secret.
 *
 * The stack must stay environment-agnostic: `maxAzs` then yields `Fn::GetAZs`, so synth makes no lookups,
 * and the image is only staged at synth time (`cdk deploy` builds it, which needs Docker).
 */
export class StreamingService extends Construct {
  readonly vpc: ec2.Vpc;
  readonly cluster: ecs.Cluster;
  readonly taskDefinition: ecs.FargateTaskDefinition;
  readonly container: ecs.ContainerDefinition;
  readonly service: ecs.FargateService;
  readonly loadBalancer: elbv2.ApplicationLoadBalancer;
  readonly listener: elbv2.ApplicationListener;
  readonly targetGroup: elbv2.ApplicationTargetGroup;
  /** The scaling maximum (tasks). */
  readonly maxTasks: number;
  /** The metric autoscaling tracks (average per task, one-minute periods). */
  readonly activeSessions: cloudwatch.Metric;
  /** The Media Streams URL for STREAM_URL: `wss://domain/media-stream` with TLS, else `ws://<alb>/media-stream`. */
  readonly streamUrl: string;
  /**
   * The meeting page's browser transport for WEB_STREAM_URL: `wss://domain/web-stream` with TLS, else
   * `ws://<alb>/web-stream` (which an https page may not open: mixed content; testing only).
   */
  readonly webStreamUrl: string;
  /** What the platform's bind helpers accept for this task (task role + container environment). */
  readonly bindTarget: BindTarget;

  constructor(scope: Construct, id: string, props: StreamingServiceProps) {
    super(scope, id);
    const s = STREAMING_SERVICE;

    this.vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 }],
      // Restricting the unused default security group deploys a custom-resource Lambda; nothing here is
      // ever placed in the default group (the ALB and the tasks have their own).
      restrictDefaultSecurityGroup: false,
    });
    // Free, and table and bucket traffic stays on AWS's network instead of the tasks' public IPs.
    this.vpc.addGatewayEndpoint('DynamoDb', { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB });
    this.vpc.addGatewayEndpoint('S3', { service: ec2.GatewayVpcEndpointAwsService.S3 });

    this.cluster = new ecs.Cluster(this, 'Cluster', { vpc: this.vpc });

    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Task', {
      cpu: s.cpu,
      memoryLimitMiB: s.memoryMiB,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.ARM64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
    });

    const serviceName = `${Stack.of(this).stackName}-streaming`;
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: s.logRetention });
    const environment: Partial<Record<keyof Config, string>> = {
      STREAMING_PORT: String(s.containerPort),
      PUBLIC_BASE_URL: props.publicBaseUrl,
      LOG_LEVEL: 'info',
      METRICS_MODE: 'emf',
      METRICS_NAMESPACE: s.metricsNamespace,
      METRICS_SERVICE: serviceName,
      DRAIN_TIMEOUT_MS: String(s.drainTimeoutMs),
      ...(props.metricsStack ? { METRICS_STACK: props.metricsStack } : {}),
    };
    this.container = this.taskDefinition.addContainer('streaming', {
      image: ecs.ContainerImage.fromAsset(PROJECT_ROOT, {
        file: 'streaming-service/Dockerfile',
        platform: Platform.LINUX_ARM64,
        ignoreMode: IgnoreMode.DOCKER,
        exclude: dockerIgnore(),
      }),
      environment: {
        ...(environment as Record<string, string>),
        NODE_OPTIONS: `--enable-source-maps --max-old-space-size=${s.maxOldSpaceMiB}`,
      },
      // The whole JSON secret in one variable: ECS refuses to start a task whose secret lacks a field it
      // names, so naming fields here would turn every new vendor into a stack change.
      ...(props.vendorKeys ? { secrets: { ['VENDOR_KEYS' satisfies keyof Config]: ecs.Secret.fromSecretsManager(props.vendorKeys) } } : {}),
      logging: ecs.LogDrivers.awsLogs({ streamPrefix: 'streaming', logGroup }),
      portMappings: [{ containerPort: s.containerPort, protocol: ecs.Protocol.TCP }],
      // The service writes nothing to disk (recordings go from memory to S3).
      readonlyRootFilesystem: true,
      stopTimeout: s.stopTimeout,
      healthCheck: {
        command: [
          'CMD',
          'node',
          '-e',
          `fetch('http://127.0.0.1:${s.containerPort}/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`,
        ],
        interval: Duration.seconds(15),
        timeout: Duration.seconds(5),
        retries: 3,
        startPeriod: Duration.seconds(20),
      },
    });
    const container = this.container;
    this.bindTarget = {
      grantPrincipal: this.taskDefinition.taskRole,
      addEnvironment: (name, value) => container.addEnvironment(name, value),
    };
    bindTable(this.bindTarget, props.table, 'readWrite');
    bindRecordings(this.bindTarget, props.recordings, 'write', 'recordings/*');
    bindDataKey(this.bindTarget, props.dataKey);
    if (props.twilioSecret) {
      const name: keyof Config = 'TWILIO_SECRET_ARN';
      container.addEnvironment(name, props.twilioSecret.secretArn);
      props.twilioSecret.grantRead(this.taskDefinition.taskRole);
    }

    this.loadBalancer = new elbv2.ApplicationLoadBalancer(this, 'Alb', {
      vpc: this.vpc,
      internetFacing: true,
      idleTimeout: s.idleTimeout,
      dropInvalidHeaderFields: true,
    });
    this.listener = props.tls
      ? this.loadBalancer.addListener('Wss', {
          port: 443,
          protocol: elbv2.ApplicationProtocol.HTTPS,
          certificates: [elbv2.ListenerCertificate.fromArn(props.tls.certificateArn)],
          sslPolicy: elbv2.SslPolicy.RECOMMENDED_TLS,
        })
      : this.loadBalancer.addListener('Ws', { port: 80, protocol: elbv2.ApplicationProtocol.HTTP });

    this.service = new ecs.FargateService(this, 'Service', {
      cluster: this.cluster,
      taskDefinition: this.taskDefinition,
      assignPublicIp: true,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      // Never below the running count during a deployment: new tasks start before old ones drain.
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      circuitBreaker: { enable: true, rollback: true },
      healthCheckGracePeriod: Duration.seconds(60),
    });
    // A live call lives on one task: a control request or a listener the ALB sends to another task is
    // forwarded to it over the VPC, on the container port (docs/live-calls.md). Only the service's own tasks.
    this.service.connections.allowInternally(ec2.Port.tcp(s.containerPort), 'Live call control and listeners forwarded to the task holding the call');

    this.targetGroup = this.listener.addTargets('Streaming', {
      port: s.containerPort,
      protocol: elbv2.ApplicationProtocol.HTTP,
      targets: [this.service],
      deregistrationDelay: s.deregistrationDelay,
      // One WebSocket is one TCP connection, which the ALB keeps on its target anyway; the cookie is for a
      // meeting page's socket that reconnects (a reload, a blip): the call it rejoins lives in the task
      // that holds it (docs/meeting.md). Phone streams ignore it (Twilio sends no cookies). An hour covers
      // the longest call.
      stickinessCookieDuration: Duration.hours(1),
      healthCheck: {
        path: '/health',
        healthyHttpCodes: '200',
        interval: s.healthCheckInterval,
        timeout: Duration.seconds(5),
        healthyThresholdCount: 2,
        unhealthyThresholdCount: 3,
      },
    });

    this.activeSessions = new cloudwatch.Metric({
      namespace: s.metricsNamespace,
      metricName: ACTIVE_SESSIONS_METRIC,
      dimensionsMap: { [SERVICE_DIMENSION]: serviceName },
      // Each task writes one point a minute: the average of a minute's points is the calls per task.
      statistic: cloudwatch.Stats.AVERAGE,
      period: Duration.minutes(1),
    });
    this.maxTasks = props.maxTasks ?? s.maxTasks;
    const scaling = this.service.autoScaleTaskCount({ minCapacity: s.minTasks, maxCapacity: this.maxTasks });
    scaling.scaleOnCpuUtilization('Cpu', {
      targetUtilizationPercent: s.targetCpuPercent,
      scaleOutCooldown: Duration.minutes(1),
      scaleInCooldown: Duration.minutes(10),
    });
    scaling.scaleToTrackCustomMetric('ActiveSessions', {
      metric: this.activeSessions,
      targetValue: s.targetSessionsPerTask,
      // Out fast (a burst of calls), in slowly: a stopped task's calls drain for up to an hour anyway.
      scaleOutCooldown: Duration.minutes(1),
      scaleInCooldown: Duration.minutes(10),
    });

    const origin = props.tls ? `wss://${props.tls.domain}` : `ws://${this.loadBalancer.loadBalancerDnsName}`;
    this.streamUrl = `${origin}/media-stream`;
    this.webStreamUrl = `${origin}/web-stream`;
  }
}
