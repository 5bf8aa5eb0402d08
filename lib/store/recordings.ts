import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../config.js';
import { lazySdk } from './lazy-sdk.js';

/** Loaded on first use: only the streaming service and the recording-URL route touch S3 (lib/infra/bundling.ts). */
const s3 = lazySdk<typeof import('@aws-sdk/client-s3')>('@aws-sdk/client-s3');
const presigner = lazySdk<typeof import('@aws-sdk/s3-request-presigner')>('@aws-sdk/s3-request-presigner');

/**
 * Call recordings in S3. History stores a recording's address as `s3://<bucket>/<key>` (API_SPEC: "an
 * object-storage address, not directly downloadable"); clients download through a short-lived presigned
 * GET from `GET /api/history/{id}/recording-url`.
 */
export interface Recordings {
  readonly bucket: string;
  /** Stores a recording; returns its `s3://` address. */
  put(objectKey: string, body: Uint8Array, contentType: string): Promise<string>;
  /** Whether the object exists. */
  exists(objectKey: string): Promise<boolean>;
  /** A presigned GET valid for `expiresInSeconds`. */
  presignGet(objectKey: string, expiresInSeconds: number): Promise<string>;
}

/** Where a call's recording lives: one object per call, under its workspace. */
export const recordingKey = (workspaceId: string, callId: string, ext = 'wav') => `recordings/${workspaceId}/${callId}.${ext}`;

/** Splits `s3://bucket/key`; undefined for anything else. */
export function parseS3Url(url: string): { bucket: string; key: string } | undefined {
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  return m ? { bucket: m[1]!, key: m[2]! } : undefined;
}

export function createS3Client(config: Pick<Config, 'AWS_REGION' | 'S3_ENDPOINT'>): S3Client {
  const { S3Client } = s3();
  return new S3Client({
    region: config.AWS_REGION,
    // s3rver serves buckets by path, not by subdomain.
    ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT, forcePathStyle: true } : {}),
    // The SDK's default CRC32 checksums are unknown to s3rver; S3 accepts either.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function createRecordings(config: Pick<Config, 'AWS_REGION' | 'S3_ENDPOINT' | 'BUCKET_NAME'>, given?: S3Client): Recordings {
  const bucket = config.BUCKET_NAME;
  let built: S3Client | undefined = given;
  const client = () => (built ??= createS3Client(config));
  return {
    bucket,
    async put(objectKey, body, contentType) {
      await client().send(new (s3().PutObjectCommand)({ Bucket: bucket, Key: objectKey, Body: body, ContentType: contentType }));
      return `s3://${bucket}/${objectKey}`;
    },
    async exists(objectKey) {
      const { HeadObjectCommand, NotFound, NoSuchKey } = s3();
      try {
        await client().send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey }));
        return true;
      } catch (error) {
        if (error instanceof NotFound || error instanceof NoSuchKey) return false;
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
        throw error;
      }
    },
    presignGet(objectKey, expiresInSeconds) {
      return presigner().getSignedUrl(client(), new (s3().GetObjectCommand)({ Bucket: bucket, Key: objectKey }), { expiresIn: expiresInSeconds });
    },
  };
}
