import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Page } from '../domain/common.js';
import { NotFoundError } from '../domain/errors.js';
import { ulidTimeBounds, ID_PREFIX } from '../domain/ids.js';
import {
  EVENT_RETENTION_DAYS,
  type DeliveryAttempt,
  type DeliveryStatus,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
} from '../domain/webhook.js';
import { deleteCounted, getRecord, insertCounted, listCounted, pageOfMatches, type CollectionSpec } from './collection.js';
import { queryAll, queryPage, type Db, type PageRequest } from './dynamo.js';
import { COLLECTION, ENTITY, TABLE_SCHEMA_VERSION, fromItem, key } from './model.js';
import type { SecretBox } from './secret-box.js';
import { updateExisting } from './update.js';

const ENDPOINTS: CollectionSpec = { entity: 'webhookEndpoint', label: 'Webhook endpoint', itemKey: key.webhookEndpoint };

/** Events and delivery logs are kept this long, then DynamoDB's TTL removes them. */
const retentionTtl = (fromMs: number = Date.now()): number => Math.floor(fromMs / 1000) + EVENT_RETENTION_DAYS * 86_400;

/** Secrets are sealed at rest, bound to the workspace, and opened only where deliveries are signed. */
function seal(box: SecretBox, e: WebhookEndpoint): WebhookEndpoint {
  return {
    ...e,
    secret: box.seal(e.secret, e.workspaceId),
    ...(e.previousSecret ? { previousSecret: box.seal(e.previousSecret, e.workspaceId) } : {}),
  };
}
function open(box: SecretBox, e: WebhookEndpoint): WebhookEndpoint {
  return {
    ...e,
    secret: box.open(e.secret, e.workspaceId),
    ...(e.previousSecret ? { previousSecret: box.open(e.previousSecret, e.workspaceId) } : {}),
  };
}

/** Stores a new endpoint and counts it. */
export async function putNewWebhookEndpoint(db: Db, box: SecretBox, endpoint: WebhookEndpoint): Promise<void> {
  await insertCounted(db, ENDPOINTS, endpoint.workspaceId, {
    ...key.webhookEndpoint(endpoint.workspaceId, endpoint._id),
    entity: ENTITY.webhookEndpoint,
    v: TABLE_SCHEMA_VERSION,
    ...seal(box, endpoint),
  });
}

/** An endpoint with its secrets opened, or undefined. */
export async function findWebhookEndpoint(db: Db, box: SecretBox, ws: string, id: string): Promise<WebhookEndpoint | undefined> {
  const found = await getRecord<WebhookEndpoint>(db, ENDPOINTS, ws, id);
  return found && open(box, found);
}

/** An endpoint with its secrets opened, or 404. */
export async function getWebhookEndpoint(db: Db, box: SecretBox, ws: string, id: string): Promise<WebhookEndpoint> {
  const found = await findWebhookEndpoint(db, box, ws, id);
  if (!found) throw new NotFoundError(ENDPOINTS.label);
  return found;
}

/** A page of endpoints, newest first (secrets still sealed: the API never shows them). */
export const listWebhookEndpoints = (db: Db, ws: string, req: PageRequest): Promise<Page<WebhookEndpoint>> =>
  listCounted<WebhookEndpoint>(db, ENDPOINTS, ws, req);

/** Every endpoint of the workspace with secrets opened (at most MAX_WEBHOOK_ENDPOINTS): the fan-out of an event. */
export async function allWebhookEndpoints(db: Db, box: SecretBox, ws: string): Promise<WebhookEndpoint[]> {
  const out: WebhookEndpoint[] = [];
  for await (const item of queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `WS#${ws}`, ':prefix': COLLECTION.webhookEndpoint },
  })) {
    out.push(open(box, fromItem<WebhookEndpoint>(item)));
  }
  return out;
}

/** Writes the changed fields of an endpoint (secrets sealed again), or 404. Returns it opened. */
export async function saveWebhookEndpoint(db: Db, box: SecretBox, endpoint: WebhookEndpoint, remove: readonly (keyof WebhookEndpoint)[] = []): Promise<WebhookEndpoint> {
  const { _id, workspaceId, createdAt, ...changes } = seal(box, endpoint);
  const saved = await updateExisting<WebhookEndpoint>(db, key.webhookEndpoint(workspaceId, _id), changes, ENDPOINTS.label);
  if (remove.length > 0) await removeAttributes(db, key.webhookEndpoint(workspaceId, _id), remove);
  const opened = open(box, saved);
  for (const r of remove) delete opened[r];
  return opened;
}

async function removeAttributes(db: Db, itemKey: { pk: string; sk: string }, names: readonly string[]): Promise<void> {
  await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: itemKey,
      UpdateExpression: `REMOVE ${names.map((_, i) => `#r${i}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#r${i}`, n])),
    }),
  ).catch((error: unknown) => {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  });
}

/** Deletes an endpoint, or 404. Its delivery log expires with its TTL. */
export const deleteWebhookEndpoint = (db: Db, ws: string, id: string) => deleteCounted(db, ENDPOINTS, ws, id);

/**
 * Marks an endpoint failing from `at`, unless it already is (the first give-up starts the clock). Returns
 * the instant it has been failing since.
 */
export async function markEndpointFailing(db: Db, ws: string, id: string, at: string): Promise<string | undefined> {
  try {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.webhookEndpoint(ws, id),
        UpdateExpression: 'SET failingSince = if_not_exists(failingSince, :at)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes?.failingSince as string | undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** A success ends the failing streak. */
export const clearEndpointFailing = (db: Db, ws: string, id: string) => removeAttributes(db, key.webhookEndpoint(ws, id), ['failingSince']);

/** Disables an endpoint that is still enabled; true when this call disabled it (so the notice is sent once). */
export async function disableEndpoint(db: Db, ws: string, id: string, reason: string, at: string): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.webhookEndpoint(ws, id),
        UpdateExpression: 'SET #s = :d, disabledReason = :r, updatedAt = :at',
        ConditionExpression: 'attribute_exists(pk) AND #s = :e',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':d': 'disabled', ':e': 'enabled', ':r': reason, ':at': at },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Keeps an event for replay (and for the deliveries that read it). */
export async function putEvent(db: Db, event: WebhookEvent): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...key.event(event.workspaceId, event.id), entity: ENTITY.event, v: TABLE_SCHEMA_VERSION, ttl: retentionTtl(), event },
    }),
  );
}

/** A stored event, or undefined (unknown, another workspace's, or expired). */
export async function findEvent(db: Db, ws: string, id: string): Promise<WebhookEvent | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.event(ws, id), ConsistentRead: true }));
  const item = out.Item;
  if (!item || (typeof item.ttl === 'number' && item.ttl * 1000 < Date.now())) return undefined;
  return item.event as WebhookEvent;
}

/** Stored events created in [fromMs, toMs], oldest first, at most `limit` (event ids sort by time). */
export async function eventsBetween(db: Db, ws: string, fromMs: number, toMs: number, limit: number): Promise<WebhookEvent[]> {
  const out: WebhookEvent[] = [];
  for await (const item of queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
    ExpressionAttributeValues: {
      ':pk': `WS#${ws}`,
      ':low': `EVENT#${ID_PREFIX.event}_${ulidTimeBounds(fromMs).low}`,
      ':high': `EVENT#${ID_PREFIX.event}_${ulidTimeBounds(toMs).high}`,
    },
  })) {
    out.push(item.event as WebhookEvent);
    if (out.length >= limit) break;
  }
  return out;
}

/** Writes a new delivery (pending, no attempts yet). */
export async function putNewDelivery(db: Db, delivery: WebhookDelivery): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: {
        ...key.delivery(delivery.workspaceId, delivery.endpointId, delivery._id),
        entity: ENTITY.delivery,
        v: TABLE_SCHEMA_VERSION,
        ttl: retentionTtl(),
        ...delivery,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** A delivery, or undefined. */
export async function findDelivery(db: Db, ws: string, endpointId: string, id: string): Promise<WebhookDelivery | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.delivery(ws, endpointId, id), ConsistentRead: true }));
  return out.Item ? fromItem<WebhookDelivery>(out.Item) : undefined;
}

/**
 * Appends one attempt to a delivery and sets its status (and when the next attempt is due). The attempt
 * number guards against a redelivered queue message recording the same attempt twice.
 */
export async function recordAttempt(
  db: Db,
  d: Pick<WebhookDelivery, 'workspaceId' | 'endpointId' | '_id'>,
  attemptNumber: number,
  attempt: DeliveryAttempt,
  status: DeliveryStatus,
  nextAttemptAt?: string,
): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.delivery(d.workspaceId, d.endpointId, d._id),
        UpdateExpression: `SET attempts = list_append(attempts, :a), #s = :s, updatedAt = :u${nextAttemptAt ? ', nextAttemptAt = :n' : ''}${nextAttemptAt ? '' : ' REMOVE nextAttemptAt'}`,
        ConditionExpression: 'attribute_exists(pk) AND size(attempts) = :before',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':a': [attempt],
          ':s': status,
          ':u': attempt.at,
          ':before': attemptNumber - 1,
          ...(nextAttemptAt ? { ':n': nextAttemptAt } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** The delivery log of one endpoint, newest first; `status` filters inside the endpoint's key range. */
export async function listDeliveries(
  db: Db,
  ws: string,
  endpointId: string,
  req: PageRequest & { status?: DeliveryStatus },
): Promise<Page<WebhookDelivery>> {
  const input = {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `WS#${ws}`, ':prefix': `DELIVERY#${endpointId}#`, ...(req.status ? { ':s': req.status } : {}) },
    ...(req.status ? { FilterExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' } } : {}),
  };
  if (req.status) return pageOfMatches<WebhookDelivery>(queryAll(db, { ...input, ScanIndexForward: false }), req);
  // Without a filter, the page costs one page of reads; `total` counts keys of the endpoint's range only.
  const [items, total] = await Promise.all([queryPage(db, input, req), countKeys(db, input)]);
  return { data: items.map((i) => fromItem<WebhookDelivery>(i)), total, page: req.page, limit: req.limit };
}

async function countKeys(db: Db, input: { KeyConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> }): Promise<number> {
  let n = 0;
  for await (const _ of queryAll(db, { ...input, ProjectionExpression: 'pk' })) n += 1;
  return n;
}
