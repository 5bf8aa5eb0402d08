import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CALL_METRICS } from '../../services/call-metrics.js';
import { STREAMING_SERVICE, type StreamingService } from './streaming-service.js';

/** The alarm thresholds, each with its reason; test/offline/monitoring-stack.test.ts reads the same values. */
export const ALARMS = {
  /** Any message in a dead-letter queue is a call or a delivery that gave up: someone should look. */
  deadLettersAbove: 0,
  /** Any crash, timeout or throttle of a function over five minutes (handlers answer 4xx/5xx themselves). */
  lambdaErrorsAbove: 0,
  lambdaThrottlesAbove: 0,
  /** 5xx as a share of all answers, over five minutes, two periods running: a blip is one period. */
  api5xxPercentAbove: 1,
  /**
   * p99 of API latency in ms: the handlers answer in tens of ms warm and ~1 s cold; 2.5 s at p99 for ten
   * minutes means a dependency is slow, not a cold start.
   */
  apiP99LatencyMsAbove: 2_500,
  /** Any target the ALB finds unhealthy for two minutes (one failed check is noise, two minutes is a task). */
  unhealthyHostsAbove: 0,
  /**
   * Calls in progress as a share of what the maximum task count holds at the scaling target: past 80 %
   * scaling can add at most a fifth more, so raise `maxTasks` (or the account's Fargate quota) now.
   */
  activeCallsShareOfMax: 0.8,
  /** Failed calls as a share of ended calls over 15 minutes, counted only once 10 calls ended (a quiet night is not a rate). */
  callFailurePercentAbove: 10,
  callFailureMinCalls: 10,
} as const;

/** A named set of functions watched together (route handlers, queue consumers, ...). */
export interface FunctionGroup {
  readonly name: string;
  readonly functions: readonly lambda.IFunction[];
}

/** Options of {@link Monitoring}. */
export interface MonitoringProps {
  /** Subscribed to the alarm topic by email (context `alarmEmail`); confirm the subscription once. */
  readonly alarmEmail?: string;
  readonly deadLetterQueues: readonly { readonly name: string; readonly queue: sqs.IQueue }[];
  readonly functionGroups: readonly FunctionGroup[];
  readonly api: apigw.IHttpApi;
  readonly streaming: StreamingService;
  /** The streaming service's maximum task count (its scaling maximum). */
  readonly maxTasks: number;
  /** The `Stack` dimension of the call-outcome metrics (METRICS_STACK). */
  readonly metricsStack: string;
}

/** CloudWatch alarms cannot hold more than 10 metrics in one expression. */
const MAX_METRICS_PER_ALARM = 10;

/** Sums metrics in one expression (alarms on metric math accept at most 10 metrics). */
function sumOf(label: string, metrics: readonly cloudwatch.IMetric[], period: Duration): cloudwatch.IMetric {
  if (metrics.length === 1) return metrics[0]!;
  // Ids unique per expression: a dashboard graph holding several sums refuses ids shared between them.
  const prefix = label.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  const usingMetrics = Object.fromEntries(metrics.map((m, i) => [`${prefix}_${i}`, m]));
  return new cloudwatch.MathExpression({ expression: Object.keys(usingMetrics).join(' + '), usingMetrics, label, period });
}

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));

/**
 * Alarms, their SNS topic and one dashboard. Every alarm notifies the topic when it fires and when it
 * recovers; missing data (no traffic, no calls) never fires one.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: cloudwatch.Alarm[] = [];
  private readonly action: cwActions.SnsAction;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Alarms', { displayName: `${Stack.of(this).stackName} alarms`, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    this.action = new cwActions.SnsAction(this.topic);
    const five = Duration.minutes(5);

    const dlqWidgets = props.deadLetterQueues.map(({ name, queue }) => {
      const depth = queue.metricApproximateNumberOfMessagesVisible({ period: five, statistic: cloudwatch.Stats.MAXIMUM });
      this.alarm(`${name}DeadLetters`, depth, ALARMS.deadLettersAbove, `${name}: messages in the dead-letter queue (inspect, then redrive or delete)`);
      return depth;
    });

    const lambdaWidgets = props.functionGroups.flatMap((group) =>
      chunks(group.functions, MAX_METRICS_PER_ALARM).flatMap((part, i) => {
        const suffix = chunks(group.functions, MAX_METRICS_PER_ALARM).length > 1 ? `${i + 1}` : '';
        const errors = sumOf(`${group.name}${suffix} errors`, part.map((f) => f.metricErrors({ period: five, statistic: cloudwatch.Stats.SUM })), five);
        const throttles = sumOf(`${group.name}${suffix} throttles`, part.map((f) => f.metricThrottles({ period: five, statistic: cloudwatch.Stats.SUM })), five);
        this.alarm(`${group.name}${suffix}Errors`, errors, ALARMS.lambdaErrorsAbove, `${group.name}: Lambda errors (crashes, timeouts)`);
        this.alarm(`${group.name}${suffix}Throttles`, throttles, ALARMS.lambdaThrottlesAbove, `${group.name}: Lambda throttles (concurrency exhausted)`);
        return [errors, throttles];
      }),
    );

    const serverErrors = props.api.metricServerError({ period: five, statistic: cloudwatch.Stats.SUM });
    const requests = props.api.metricCount({ period: five, statistic: cloudwatch.Stats.SUM });
    const errorRate = new cloudwatch.MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: { errors: serverErrors, requests },
      label: 'API 5xx %',
      period: five,
    });
    this.alarm('Api5xxRate', errorRate, ALARMS.api5xxPercentAbove, 'API: 5xx answers above 1 % of requests', 2);
    const p99 = props.api.metricLatency({ period: five, statistic: 'p99' });
    this.alarm('ApiP99Latency', p99, ALARMS.apiP99LatencyMsAbove, 'API: p99 latency above 2.5 s', 2);

    const unhealthy = props.streaming.targetGroup.metrics.unhealthyHostCount({ period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM });
    this.alarm('StreamingUnhealthyHosts', unhealthy, ALARMS.unhealthyHostsAbove, 'Streaming: ALB targets failing their health checks', 2);

    // Each task writes its count once a minute: the minute's sum over tasks is the calls in progress.
    const activeCalls = props.streaming.activeSessions.with({ statistic: cloudwatch.Stats.SUM, label: 'calls in progress' });
    const nearMax = Math.floor(ALARMS.activeCallsShareOfMax * props.maxTasks * STREAMING_SERVICE.targetSessionsPerTask);
    this.alarm('ActiveCallsNearMaximum', activeCalls, nearMax - 1, `Streaming: ${nearMax}+ calls in progress, near what ${props.maxTasks} tasks hold`, 3);

    const callMetric = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: CALL_METRICS.namespace,
        metricName,
        dimensionsMap: { [CALL_METRICS.dimension]: props.metricsStack },
        statistic: cloudwatch.Stats.SUM,
        period: Duration.minutes(15),
      });
    const failureRate = new cloudwatch.MathExpression({
      expression: `IF(ended >= ${ALARMS.callFailureMinCalls}, 100 * failed / ended, 0)`,
      usingMetrics: { failed: callMetric(CALL_METRICS.failed), ended: callMetric(CALL_METRICS.ended) },
      label: 'failed calls %',
      period: Duration.minutes(15),
    });
    this.alarm('CallFailureRate', failureRate, ALARMS.callFailurePercentAbove, 'Calls: more than 10 % of ended calls failed (15 minutes)');

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { dashboardName: `${Stack.of(this).stackName}-platform` });
    const graph = (title: string, left: cloudwatch.IMetric[], width = 12) => new cloudwatch.GraphWidget({ title, left, width });
    this.dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 }),
    );
    this.dashboard.addWidgets(graph('API requests and 5xx', [requests, serverErrors]), graph('API 5xx % and p99 latency (ms)', [errorRate, p99]));
    this.dashboard.addWidgets(graph('Calls in progress', [activeCalls]), graph('Calls ended and failed (15 min)', [callMetric(CALL_METRICS.ended), callMetric(CALL_METRICS.failed)]));
    this.dashboard.addWidgets(graph('Streaming targets unhealthy', [unhealthy]), graph('Dead letters', dlqWidgets));
    this.dashboard.addWidgets(graph('Lambda errors and throttles by group', lambdaWidgets, 24));
  }

  /** One alarm on `metric > threshold`, notifying the topic on alarm and on recovery. */
  private alarm(id: string, metric: cloudwatch.IMetric, threshold: number, description: string, periods = 1): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric,
      threshold,
      evaluationPeriods: periods,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
    return alarm;
  }
}
