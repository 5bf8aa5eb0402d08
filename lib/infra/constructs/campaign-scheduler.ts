import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { PlatformFunction, PlatformFunctionProps } from './api-function.js';
import { bindDispatchQueue, bindTable, bindWebhookQueue } from './bindings.js';

/**
 * The campaign scheduler on AWS (docs/campaigns.md, "The scheduler"): an EventBridge rule fires a Lambda
 * every minute, and the Lambda runs a tick every CAMPAIGN_TICK_MS for 55 s (functions/schedule/campaigns.ts),
 * so concurrency slots refill within a second and not once a minute. Each dial goes to the existing dispatch
 * queue, whose consumer places the call as it does for the API. A Step Functions map would add a state
 * machine per campaign for what one stateless loop over the table does; the rule is the simpler of the two.
 */
export interface CampaignSchedulerProps {
  readonly table: dynamodb.ITableV2;
  readonly dispatchQueue: sqs.IQueue;
  readonly webhookQueue: sqs.IQueue;
  /** Makes the platform's function (its defaults, data key and public URLs): the stack's `addFunction`. */
  readonly newFunction: (scope: Construct, id: string, props: PlatformFunctionProps) => PlatformFunction;
  /** The account's dials per second (Twilio's CPS for the platform account). */
  readonly dialsPerSecond?: number;
}

/** EventBridge's finest rate. */
export const CAMPAIGN_SCHEDULE_EVERY = Duration.minutes(1);

export class CampaignScheduler extends Construct {
  readonly fn: PlatformFunction;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: CampaignSchedulerProps) {
    super(scope, id);
    this.fn = props.newFunction(this, 'Function', {
      entry: 'functions/schedule/campaigns.ts',
      // The run loops for 55 s (RUN_MS) and stops itself; the margin covers the tick in progress.
      timeout: Duration.seconds(70),
      environment: props.dialsPerSecond ? { CAMPAIGN_DIALS_PER_SECOND: String(props.dialsPerSecond) } : {},
    });
    // It reads and writes campaigns, targets, calls and credits (the call path), sends dispatch messages,
    // and announces low credits like any call start.
    bindTable(this.fn, props.table, 'readWrite');
    bindDispatchQueue(this.fn, props.dispatchQueue, 'send');
    bindWebhookQueue(this.fn, props.webhookQueue);
    this.rule = new events.Rule(this, 'Schedule', {
      description: 'Runs the campaign scheduler: dials due contacts within their hours and limits',
      schedule: events.Schedule.rate(CAMPAIGN_SCHEDULE_EVERY),
      // A missed run is not retried: the next one a minute later does the same work from the table.
      targets: [new eventTargets.LambdaFunction(this.fn.function, { retryAttempts: 0 })],
    });
  }
}
