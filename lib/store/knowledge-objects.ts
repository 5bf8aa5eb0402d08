import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../config.js';
import { lazySdk } from './lazy-sdk.js';
import { createS3Client } from './recordings.js';

const s3 = lazySdk<typeof import('@aws-sdk/client-s3')>('@aws-sdk/client-s3');

/**
 * The knowledge objects in the bucket (docs/knowledge.md, "Storage"). Every key starts with
 * `workspaces/<ws>/kb/<kbId>/`, built here from the workspace the caller was authenticated as, so no read
 * can reach another workspace's objects whatever ids it is handed, and deleting a knowledge base is
 * deleting one prefix.
 *
 *   workspaces/<ws>/kb/<kbId>/docs/<docId>/source           the document as uploaded or fetched
 *   workspaces/<ws>/kb/<kbId>/docs/<docId>/r<rev>.seg       its index segment at one revision (search-index.ts)
 */
export const knowledgePrefix = (ws: string, kbId: string): string => `workspaces/${ws}/kb/${kbId}/`;
export const documentPrefix = (ws: string, kbId: string, docId: string): string => `${knowledgePrefix(ws, kbId)}docs/${docId}/`;
export const sourceKey = (ws: string, kbId: string, docId: string): string => `${documentPrefix(ws, kbId, docId)}source`;
export const segmentKey = (ws: string, kbId: string, docId: string, revision: number): string => `${documentPrefix(ws, kbId, docId)}r${revision}.seg`;

export interface KnowledgeObjects {
  put(objectKey: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The object's bytes, or undefined when there is none. */
  get(objectKey: string): Promise<Uint8Array | undefined>;
  /** Every key under a prefix. */
  list(prefix: string): Promise<string[]>;
  /** Deletes every object under a prefix; resolves with how many were deleted. */
  deletePrefix(prefix: string): Promise<number>;
}

const isMissing = (error: unknown): boolean =>
  (error as { name?: string }).name === 'NoSuchKey' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

export function createKnowledgeObjects(config: Pick<Config, 'AWS_REGION' | 'S3_ENDPOINT' | 'BUCKET_NAME'>, given?: S3Client): KnowledgeObjects {
  const bucket = config.BUCKET_NAME;
  let built: S3Client | undefined = given;
  const client = () => (built ??= createS3Client(config));
  const list = async (prefix: string): Promise<string[]> => {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const out = await client().send(new (s3().ListObjectsV2Command)({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
      for (const o of out.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return keys;
  };
  return {
    async put(objectKey, body, contentType) {
      await client().send(new (s3().PutObjectCommand)({ Bucket: bucket, Key: objectKey, Body: body, ContentType: contentType }));
    },
    async get(objectKey) {
      try {
        const out = await client().send(new (s3().GetObjectCommand)({ Bucket: bucket, Key: objectKey }));
        return out.Body ? await out.Body.transformToByteArray() : undefined;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    list,
    async deletePrefix(prefix) {
      const keys = await list(prefix);
      // One object at a time: s3rver's multi-object delete needs a Content-MD5 the SDK no longer sends by default.
      // Twenty at a time: a knowledge base of 500 documents holds about 1,000 objects.
      for (let i = 0; i < keys.length; i += 20) {
        await Promise.all(keys.slice(i, i + 20).map((k) => client().send(new (s3().DeleteObjectCommand)({ Bucket: bucket, Key: k }))));
      }
      return keys.length;
    },
  };
}
