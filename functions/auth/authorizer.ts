import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { loadConfig } from '../../lib/config.js';
import { keyVerdict, noteKeyUse, type ApiKeyContext } from '../../lib/services/api-keys.js';
import { describeError, log, setLogLevel } from '../../lib/observability/log.js';
import { createDb, type Db } from '../../lib/store/dynamo.js';

let db: Db | undefined;

/**
 * The HTTP API's Lambda authorizer for every keyed route (lib/infra/constructs/edge.ts). API Gateway caches
 * its answer per `x-api-key` value for the authorizer's TTL, so a flood of one bad key costs one invocation
 * per TTL, and no request with a bad key ever starts a route's Lambda. It needs only the table (no data key,
 * no vendor SDK), so its bundle and cold start are the smallest of the API. A table error is an error (API
 * Gateway answers 500 and caches nothing), never a verdict.
 */
export async function handler(event: APIGatewayRequestAuthorizerEventV2): Promise<APIGatewaySimpleAuthorizerWithContextResult<ApiKeyContext | Record<string, never>>> {
  if (!db) {
    const config = loadConfig();
    setLogLevel(config.LOG_LEVEL);
    db = createDb({ table: config.TABLE_NAME, region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT });
  }
  try {
    const verdict = await keyVerdict(db, event.headers?.['x-api-key']);
    if (verdict.kind !== 'ok') {
      log('info', 'api key refused', { requestId: event.requestContext.requestId, verdict: verdict.kind });
      return { isAuthorized: false, context: {} };
    }
    // The routes behind it do not read the key: the listing's "last used" is kept here.
    await noteKeyUse(db, verdict.keyHash, verdict.record);
    return { isAuthorized: true, context: verdict.context };
  } catch (error) {
    log('error', 'api key check failed', { requestId: event.requestContext.requestId, ...describeError(error) });
    throw error;
  }
}
