import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '../../lib/deps.js';
import { IngestMessage } from '../../lib/domain/knowledge/schema.js';
import { consumeBatch } from '../../lib/http/sqs-batch.js';
import { setLogLevel } from '../../lib/observability/log.js';
import { ingestDocument } from '../../lib/services/knowledge-ingest.js';
import { knowledgeDepsOf } from '../../lib/services/knowledge.js';

/**
 * The knowledge-ingestion queue consumer (docs/knowledge.md, "Ingestion"): each record is one document
 * revision to index. A document's own problems end as its `failed` status; a record fails here only on our
 * own errors, so SQS redelivers it and finally moves it to the dead letters.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const deps = knowledgeDepsOf(await getDeps());
  setLogLevel(deps.config.LOG_LEVEL);
  return consumeBatch(event, 'knowledge', IngestMessage, async (message, record) => {
    await ingestDocument(deps, message, { receiveCount: Number(record.attributes.ApproximateReceiveCount ?? '1') });
  });
}
