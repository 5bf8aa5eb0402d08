import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import * as z from 'zod';
import { createDb, type Db } from '../store/dynamo.js';
import { addCredits, createApiKey, createWorkspace, revokeApiKey } from '../store/workspaces.js';
import { ensureTable, startDynamoLocal } from './dynamodb.js';
import { endpointsFile, LocalSettings } from './platform.js';
import { importContactsCommand, readImportFile } from './contact-import-cli.js';
import type { ProgressSink } from './progress.js';

const CliEnv = LocalSettings.extend({ AWS_REGION: z.string().default('us-east-1') });

interface Target {
  readonly db: Db;
  close(): Promise<void>;
}

/** The store of a running `npm start`, or DynamoDB Local started on DATA_DIR for this one command. */
async function localTarget(env: z.infer<typeof CliEnv>): Promise<Target> {
  const running = await readFile(endpointsFile(env.DATA_DIR), 'utf8')
    .then((t) => JSON.parse(t) as { dynamodb: string; table: string })
    .catch(() => undefined);
  if (running) {
    const db = createDb({ table: running.table, region: 'us-east-1', endpoint: running.dynamodb });
    const alive = await db.doc.send(new ListTablesCommand({})).then(() => true, () => false);
    if (alive) return { db, close: async () => db.doc.destroy() };
  }
  const dynamo = await startDynamoLocal(resolve(env.DATA_DIR, 'dynamodb'));
  await ensureTable(dynamo.endpoint, env.TABLE_NAME);
  const db = createDb({ table: env.TABLE_NAME, region: 'us-east-1', endpoint: dynamo.endpoint });
  return { db, close: async () => { db.doc.destroy(); await dynamo.stop(); } };
}

const positiveNumber = (flag: string, v: string | undefined) => {
  const n = Number(v);
  if (v === undefined || !Number.isFinite(n) || n < 0) throw new Error(`--${flag} must be a number >= 0`);
  return n;
};
const required = (flag: string, v: string | undefined) => {
  if (!v) throw new Error(`--${flag} is required`);
  return v;
};

/** Runs one admin command and returns what it prints. */
export async function runCli(
  positionals: string[],
  flags: { name?: string; credits?: string; workspace?: string; key?: string; amount?: string; aws?: boolean; 'default-country'?: string },
  rawEnv: NodeJS.ProcessEnv,
  io: { stderr: ProgressSink } = { stderr: process.stderr },
): Promise<Record<string, unknown>> {
  const env = CliEnv.parse(rawEnv);
  // `contacts import` is the one command with a positional argument (the file).
  const isImport = positionals[0] === 'contacts' && positionals[1] === 'import' && positionals.length <= 3;
  const command = isImport ? 'contacts import' : positionals.join(' ');
  const known = ['workspace create', 'key create', 'key revoke', 'credits add', 'contacts import'];
  if (!known.includes(command)) throw new Error(`Unknown command "${command}". Commands: ${known.join(', ')}`);
  const importFile = isImport ? await readImportFile(positionals[2]) : undefined;
  const target: Target = flags.aws
    ? (() => {
        const db = createDb({ table: env.TABLE_NAME, region: env.AWS_REGION });
        return { db, close: async () => db.doc.destroy() };
      })()
    : await localTarget(env);
  try {
    const { db } = target;
    switch (command) {
      case 'workspace create': {
        const created = await createWorkspace(db, {
          name: required('name', flags.name),
          credits: flags.credits === undefined ? 0 : positiveNumber('credits', flags.credits),
        });
        return { workspaceId: created.workspaceId, apiKey: created.apiKey };
      }
      case 'key create': {
        const ws = required('workspace', flags.workspace);
        const created = await createApiKey(db, ws, required('name', flags.name));
        return { workspaceId: ws, keyId: created.keyId, apiKey: created.apiKey };
      }
      case 'key revoke': {
        const ws = required('workspace', flags.workspace);
        const keyId = required('key', flags.key);
        await revokeApiKey(db, ws, keyId);
        return { workspaceId: ws, keyId, revoked: true };
      }
      case 'contacts import': {
        const workspaceId = required('workspace', flags.workspace);
        const result = await importContactsCommand(
          db,
          { bytes: importFile!, workspaceId, defaultCountry: flags['default-country'] },
          io.stderr,
        );
        return { ...result };
      }
      default: {
        const ws = required('workspace', flags.workspace);
        const balance = await addCredits(db, ws, positiveNumber('amount', flags.amount));
        return { workspaceId: ws, balance };
      }
    }
  } finally {
    await target.close();
  }
}
