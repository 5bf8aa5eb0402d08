import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
// A word's forms share their features ("parking", "park"), as a model's would: the keyword index's stemmer.
import { stem } from '../../domain/knowledge/search-index.js';

/**
 * OpenAI's embeddings API (`POST /v1/embeddings`) as the stand-in serves it, beside its chat completions
 * (openai-llm.ts), so the official SDK runs unchanged against it. It enforces what OpenAI documents for
 * `CreateEmbeddingRequest` (the OpenAPI spec of api.openai.com): `input` a non-empty string or an array of
 * at most 2,048 non-empty strings (token arrays too), each at most 8,192 tokens, at most 300,000 tokens
 * summed over the request; `dimensions` only on `text-embedding-3-*` and at most the model's size;
 * `encoding_format` `float` or `base64` (the SDK asks for base64 when the caller names none).
 *
 * The vectors are deterministic and mean something: each is a hashed bag of the text's words, stemmed
 * (weight 1), and character trigrams of each (weight 0.5), signed by a second hash bit, then normalized, so texts
 * that share words or word pieces are close and unrelated texts are near orthogonal. Retrieval tests over
 * them pass or fail for the reasons they would with a real model's lexical side, not by construction.
 */

const MODEL_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/** OpenAI's documented request limits (see above). */
export const EMBEDDINGS_LIMITS = { maxInputs: 2048, maxInputTokens: 8192, maxRequestTokens: 300_000 } as const;

/** A token count close to tiktoken's for English (~4 characters a token), never under the word count. */
export const approxTokens = (text: string): number => Math.max(text.split(/\s+/).filter(Boolean).length, Math.ceil(text.length / 4));

function bucket(feature: string, dims: number): { index: number; sign: number } {
  const h = createHash('md5').update(feature).digest();
  return { index: h.readUInt32LE(0) % dims, sign: h[4]! & 1 ? 1 : -1 };
}

/** The stand-in's vector of a text. */
export function standinEmbedding(text: string, dims: number): Float32Array {
  const v = new Float32Array(dims);
  const words = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    const root = stem(w);
    const f = bucket(`w:${root}`, dims);
    v[f.index]! += f.sign;
    const padded = `^${root}$`;
    for (let i = 0; i + 3 <= padded.length; i += 1) {
      const g = bucket(`g:${padded.slice(i, i + 3)}`, dims);
      v[g.index]! += 0.5 * g.sign;
    }
  }
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < dims; i += 1) v[i]! /= n;
  return v;
}

type Problem = { status: number; message: string; param: string | null; code: string | null };

/** Answers one embeddings request; `body` is the parsed JSON, `auth` the Bearer check's verdict. */
export function serveEmbeddings(res: ServerResponse, body: unknown, auth: { message: string; code: string | null } | undefined): void {
  const problem = (p: Problem) => {
    res.writeHead(p.status, { 'content-type': 'application/json', 'x-request-id': `req_${randomBytes(16).toString('hex')}` });
    res.end(JSON.stringify({ error: { message: p.message, type: 'invalid_request_error', param: p.param, code: p.code } }));
  };
  if (auth) return problem({ status: 401, message: auth.message, param: null, code: auth.code });
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return problem({ status: 400, message: 'We could not parse the JSON body of your request.', param: null, code: null });
  }
  const b = (body ?? {}) as { model?: unknown; input?: unknown; dimensions?: unknown; encoding_format?: unknown };
  if (typeof b.model !== 'string') return problem({ status: 400, message: "you must provide a model parameter", param: null, code: null });
  const full = MODEL_DIMENSIONS[b.model];
  if (!full) return problem({ status: 404, message: `The model \`${b.model}\` does not exist or you do not have access to it.`, param: null, code: 'model_not_found' });
  const raw = b.input;
  const inputs: string[] | undefined =
    typeof raw === 'string'
      ? [raw]
      : Array.isArray(raw) && raw.every((x) => typeof x === 'string')
        ? (raw as string[])
        : Array.isArray(raw) && raw.every((x) => Array.isArray(x) || typeof x === 'number')
          ? (raw.every((x) => typeof x === 'number') ? [raw as number[]] : (raw as number[][])).map((t) => t.map((n) => `t${n}`).join(' '))
          : undefined;
  if (!inputs) return problem({ status: 400, message: "'input' must be a string, an array of strings, or an array of token arrays", param: 'input', code: null });
  if (inputs.length === 0 || inputs.some((t) => t === '')) return problem({ status: 400, message: "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", param: null, code: null });
  if (inputs.length > EMBEDDINGS_LIMITS.maxInputs) return problem({ status: 400, message: `'$.input' is too long. Maximum length is ${EMBEDDINGS_LIMITS.maxInputs}, but got ${inputs.length}.`, param: null, code: null });
  const counts = inputs.map(approxTokens);
  const longest = Math.max(...counts);
  if (longest > EMBEDDINGS_LIMITS.maxInputTokens) {
    return problem({ status: 400, message: `This model's maximum context length is ${EMBEDDINGS_LIMITS.maxInputTokens} tokens, however you requested ${longest} tokens in the input. Please reduce your input.`, param: null, code: null });
  }
  const total = counts.reduce((a, c) => a + c, 0);
  if (total > EMBEDDINGS_LIMITS.maxRequestTokens) {
    return problem({ status: 400, message: `Requested ${total} tokens, max ${EMBEDDINGS_LIMITS.maxRequestTokens} tokens per request`, param: null, code: 'max_tokens_per_request' });
  }
  let dims = full;
  if (b.dimensions !== undefined) {
    if (!b.model.startsWith('text-embedding-3')) return problem({ status: 400, message: 'This model does not support specifying dimensions.', param: null, code: null });
    if (typeof b.dimensions !== 'number' || !Number.isInteger(b.dimensions) || b.dimensions < 1 || b.dimensions > full) {
      return problem({ status: 400, message: `Invalid value for 'dimensions' = ${String(b.dimensions)}. Must be between 1 and ${full}.`, param: 'dimensions', code: null });
    }
    dims = b.dimensions;
  }
  const format = b.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') return problem({ status: 400, message: "'encoding_format' must be 'float' or 'base64'", param: 'encoding_format', code: null });
  const data = inputs.map((text, index) => {
    const v = standinEmbedding(text, dims);
    return { object: 'embedding', index, embedding: format === 'base64' ? Buffer.from(v.buffer).toString('base64') : Array.from(v) };
  });
  res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${randomBytes(16).toString('hex')}` });
  res.end(JSON.stringify({ object: 'list', data, model: b.model, usage: { prompt_tokens: total, total_tokens: total } }));
}
