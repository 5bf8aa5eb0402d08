/**
 * Invariant: the local recordings bucket (s3rver, a development stand-in) answers only requests signed with
 * the credentials it made up at start: unsigned requests (listing, reading), a wrong secret, a tampered or
 * expired presigned URL all get 403 and reveal nothing, while the AWS SDK with the right credentials and a
 * fresh presigned URL work. It listens on loopback only and refuses to start on any other interface.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackHost, startS3Local, type LocalS3 } from '../../lib/local/platform/s3.js';

const BUCKET = 'rec-test';
const KEY = 'recordings/ws_a/call_1.wav';
let dir: string;
let s3: LocalS3;

const client = (credentials = s3.credentials) =>
  new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vap-s3-'));
  s3 = await startS3Local(dir, BUCKET);
  await client().send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: Buffer.from('RIFF-audio'), ContentType: 'audio/wav' }));
});
afterAll(async () => {
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('local recordings bucket', () => {
  it('listens on 127.0.0.1 on a port the OS picked, and refuses to start on other interfaces', async () => {
    const url = new URL(s3.endpoint);
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
    for (const host of ['0.0.0.0', '::', '192.168.1.20', '10.0.0.5', 'example.com']) {
      expect(isLoopbackHost(host), host).toBe(false);
      await expect(startS3Local(join(dir, 'other'), BUCKET, { host })).rejects.toThrow(/loopback only/);
    }
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) expect(isLoopbackHost(host), host).toBe(true);
  });

  it('refuses unsigned listing and reading with 403, revealing no key', async () => {
    for (const path of [`/${BUCKET}`, `/${BUCKET}?list-type=2`, `/${BUCKET}/${KEY}`, '/']) {
      const res = await fetch(`${s3.endpoint}${path}`);
      const text = await res.text();
      expect(res.status, path).toBe(403);
      expect(text).toContain('<Code>AccessDenied</Code>');
      expect(text).not.toContain('call_1');
    }
    const put = await fetch(`${s3.endpoint}/${BUCKET}/recordings/ws_b/x.wav`, { method: 'PUT', body: 'x' });
    expect(put.status).toBe(403);
  });

  it('serves the SDK with the right credentials and refuses a wrong secret', async () => {
    const listed = await client().send(new ListObjectsV2Command({ Bucket: BUCKET }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual([KEY]);
    const got = await client().send(new GetObjectCommand({ Bucket: BUCKET, Key: KEY }));
    expect(await got.Body!.transformToString()).toBe('RIFF-audio');
    const wrong = client({ accessKeyId: s3.credentials.accessKeyId, secretAccessKey: 'not-the-secret' });
    await expect(wrong.send(new GetObjectCommand({ Bucket: BUCKET, Key: KEY }))).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    const unknown = client({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
    await expect(unknown.send(new ListObjectsV2Command({ Bucket: BUCKET }))).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
  });

  it('a fresh presigned URL works; a tampered or expired one is 403', async () => {
    const url = await getSignedUrl(client(), new GetObjectCommand({ Bucket: BUCKET, Key: KEY }), { expiresIn: 900 });
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('RIFF-audio');

    const tampered = url.replace('ws_a/call_1.wav', 'ws_b/call_1.wav');
    expect(tampered).not.toBe(url);
    const bad = await fetch(tampered);
    expect(bad.status).toBe(403);
    expect(await bad.text()).toContain('SignatureDoesNotMatch');

    const old = await getSignedUrl(client(), new GetObjectCommand({ Bucket: BUCKET, Key: KEY }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 2 * 3600_000),
    });
    const expired = await fetch(old);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');
  });
});
