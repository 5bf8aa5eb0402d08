/**
 * How long a store request may take: 5 s on AWS, where DynamoDB and SQS answer in milliseconds and a
 * stuck connection must not eat a Lambda's budget; 30 s against a local endpoint (DynamoDB Local, the
 * local queue), one JVM or process on a laptop shared with everything else, which took over 5 s under a
 * full test run beside other work (3 December) and answered the API's callers 503.
 */
export const storeTimeoutMs = (endpoint: string | undefined): number => (endpoint ? 30_000 : 5_000);
