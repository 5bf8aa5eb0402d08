import type { Config } from '../../config.js';
import type { WorkspaceProviderKeys } from '../../domain/provider-key.js';
import { VendorError } from '../shared/errors.js';
import { configWithWorkspaceKeys } from '../workspace-keys.js';
import { loadSideModule } from '../../side-module.js';

/**
 * Embeddings through OpenAI's embeddings API (`POST /v1/embeddings`) with the official SDK: the platform's
 * key, or the workspace's own OpenAI key when it has one (docs/provider-keys.md), at OPENAI_BASE_URL (the
 * stand-in under `npm start`). The limits batched against are OpenAI's (its OpenAPI `CreateEmbeddingRequest`):
 * at most 2,048 inputs per request, 8,192 tokens per input, 300,000 tokens summed over a request.
 */

/** The model and size every knowledge base is built with (shortened `text-embedding-3` vectors are supported by the API's `dimensions`). */
export const EMBEDDING_MODEL = 'text-embedding-3-small';
/** 256 dimensions: 1 KiB per chunk, a 10,000-chunk base is 10 MiB and scans in milliseconds (bench/knowledge.ts). */
export const EMBEDDING_DIMENSIONS = 256;

export const EMBEDDING_LIMITS = {
  maxInputs: 2_048,
  maxInputTokens: 8_192,
  maxRequestTokens: 300_000,
} as const;

/**
 * Inputs per request here: far under the vendor's 2,048, so one request stays under its 300,000 tokens
 * even when every chunk is at its longest (1,200 characters is at most ~1,200 tokens; 128 × 1,200 = 153,600).
 */
const BATCH = 128;

/** The public API (lib/vendors/llm/openai.ts says the same; not imported, so the SDK stays out of this module). */
const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

type EmbeddingsLibs = typeof import('./openai-libs.js');
/** The file ./openai-libs.ts is built into beside the bundles that embed (lib/infra/entry-needs.ts). */
export const EMBEDDINGS_LIBS_FILE = 'embeddings-libs.mjs';
export const EMBEDDINGS_LIBS_SOURCE = 'lib/vendors/embeddings/openai-libs.ts';

/** The `openai` SDK (~350 KB), loaded on the first embedding (lib/side-module.ts). */
function loadEmbeddingsLibs(): Promise<EmbeddingsLibs> {
  return loadSideModule<EmbeddingsLibs>(import.meta.url, EMBEDDINGS_LIBS_FILE, './openai-libs.js');
}

export interface EmbeddingsProvider {
  readonly model: string;
  readonly dimensions: number;
  /** One unit vector per text, in order; `tokens` is what the vendor billed. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<{ vectors: Float32Array[]; tokens: number }>;
}

export function createEmbeddings(config: Config, keys: WorkspaceProviderKeys = {}): EmbeddingsProvider {
  const effective = configWithWorkspaceKeys(config, keys);
  const apiKey = effective.OPENAI_API_KEY;
  let client: InstanceType<EmbeddingsLibs['OpenAI']> | undefined;
  return {
    model: EMBEDDING_MODEL,
    dimensions: EMBEDDING_DIMENSIONS,
    async embed(texts, signal) {
      if (!apiKey) throw new VendorError('openai', 'OPENAI_API_KEY is not set: embeddings need an OpenAI key', false);
      const { OpenAI } = await loadEmbeddingsLibs();
      client ??= new OpenAI({ apiKey, baseURL: effective.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL, maxRetries: 2, timeout: 30_000, organization: null, project: null });
      const vectors: Float32Array[] = [];
      let tokens = 0;
      for (let i = 0; i < texts.length; i += BATCH) {
        const batch = texts.slice(i, i + BATCH).map((t) => t.slice(0, EMBEDDING_LIMITS.maxInputTokens * 2) || ' ');
        let out;
        try {
          out = await client.embeddings.create({ model: EMBEDDING_MODEL, input: batch, dimensions: EMBEDDING_DIMENSIONS, encoding_format: 'float' }, { signal });
        } catch (error) {
          const status = (error as { status?: number }).status;
          throw new VendorError('openai', `embeddings request failed: ${(error as Error).message}`, status === undefined || status >= 500 || status === 429, status, { cause: error });
        }
        const sorted = [...out.data].sort((a, b) => a.index - b.index);
        for (const d of sorted) vectors.push(unit(Float32Array.from(d.embedding as number[])));
        tokens += out.usage?.prompt_tokens ?? 0;
      }
      return { vectors, tokens };
    },
  };
}

function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i += 1) v[i]! /= n;
  return v;
}
