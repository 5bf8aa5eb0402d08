/**
 * The CDK app: `npm run synth` (offline, no AWS account, no Docker) and `cdk deploy`.
 * Context: `stackName` (default VoiceAgentPlatform, so several stages can share an account) and
 * `publicBaseUrl` (a custom domain; default the API's own endpoint), `twilioSecretArn` (an existing secret
 * with the platform's Twilio account; default a new one to fill in), `certificateArn` + `streamDomain` (TLS
 * for the streaming service's ALB: Twilio needs wss; without them STREAM_URL is ws://, for testing only),
 * `apiDomain`, `streamDomain`, `hostedZoneId` + `hostedZoneName` (names with certificates, records in the
 * zone), `vendorKeysSecretArn`, `alarmEmail` and `waf` (`true`). docs/deploy.md lists them all.
 */
import { App, Tags } from 'aws-cdk-lib';
import { PlatformStack } from '../lib/infra/stack.js';
import { ensureDashboardBuild } from '../lib/web/dashboard/build.js';

const app = new App();

const context = (name: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(name);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`Context ${name} must be a string`);
  return value;
};

const publicBaseUrl = context('publicBaseUrl');
const twilioSecretArn = context('twilioSecretArn');
const certificateArn = context('certificateArn');
const streamDomain = context('streamDomain');
if (certificateArn !== undefined && streamDomain === undefined) {
  throw new Error('The context certificateArn needs streamDomain (the name the certificate covers)');
}
const apiDomain = context('apiDomain');
const hostedZoneId = context('hostedZoneId');
const hostedZoneName = context('hostedZoneName');
if ((hostedZoneId === undefined) !== (hostedZoneName === undefined)) {
  throw new Error('Set the contexts hostedZoneId and hostedZoneName together (the zone is not looked up, so synth stays offline)');
}
const vendorKeysSecretArn = context('vendorKeysSecretArn');
const alarmEmail = context('alarmEmail');
const waf = context('waf');
if (waf !== undefined && waf !== 'true' && waf !== 'false') throw new Error('The context waf is true or false');
// The dashboard's pages, built with Vite when their sources changed (as `npm start` does), go to its bucket.
const dashboardPagesDir = await ensureDashboardBuild();
// No `env`: the stack is environment-agnostic, so synth needs no credentials and makes no lookups.
new PlatformStack(app, context('stackName') ?? 'VoiceAgentPlatform', {
  description: 'Voice agent platform: HTTP API, Lambda handlers, DynamoDB, S3 recordings, SQS call dispatch',
  ...(publicBaseUrl === undefined ? {} : { publicBaseUrl }),
  ...(twilioSecretArn === undefined ? {} : { twilioSecretArn }),
  ...(certificateArn && streamDomain ? { streamingTls: { certificateArn, domain: streamDomain } } : {}),
  domains: {
    ...(apiDomain === undefined ? {} : { apiDomain }),
    ...(streamDomain === undefined ? {} : { streamDomain }),
    ...(hostedZoneId && hostedZoneName ? { hostedZone: { hostedZoneId, zoneName: hostedZoneName } } : {}),
  },
  ...(vendorKeysSecretArn === undefined ? {} : { vendorKeysSecretArn }),
  ...(alarmEmail === undefined ? {} : { alarmEmail }),
  waf: waf === 'true',
  dashboardPagesDir,
});
Tags.of(app).add('project', 'voice-agent-platform');
