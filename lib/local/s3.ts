import { mkdir } from 'node:fs/promises';
import S3rver from 's3rver';
import { freePort } from './ports.js';

export interface LocalS3 {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** s3rver's fixed credentials; presigned URLs must be signed with them to verify. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** Starts s3rver with its objects under `dir` and the bucket created. */
export async function startS3Local(dir: string, bucket: string): Promise<LocalS3> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    directory: dir,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}
