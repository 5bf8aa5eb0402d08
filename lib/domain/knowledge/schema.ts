/**
 * Knowledge bases and their documents: request and response shapes, limits and statuses (docs/knowledge.md).
 * Kept apart from the readers and the index so the route table does not pull them into every bundle.
 */
import * as z from 'zod';
import { BodyWorkspaceId, Name, Timestamp } from '../common.js';

const MiB = 1024 * 1024;

/** The limits of one knowledge base, each with its reason (docs/knowledge.md, "Limits"). */
export const KNOWLEDGE_LIMITS = {
  /** Same budget as the contact import: a synchronous Lambda carries at most 6 MB of base64 body. */
  maxFileBytes: 4 * MiB,
  /** Plain text sent as JSON: inside the 1 MiB JSON body limit of the API. */
  maxTextChars: 500_000,
  /** Extracted text kept per document: 2 M characters is ~1,000 pages, ~5,000 chunks. */
  maxExtractedChars: 2_000_000,
  /** Pages of a PDF: 500 pages of text ingest in well under a minute (bench/knowledge.ts). */
  maxPdfPages: 500,
  /** A DOCX is a ZIP: its declared uncompressed size is capped before anything is inflated (a PDF's streams too). */
  maxUncompressedBytes: 50 * MiB,
  /** Documents per knowledge base: a query loads every segment of the base into memory. */
  maxDocuments: 500,
  /** Chunks per knowledge base: retrieval is an exact scan, ~5 ms per 10,000 chunks (bench/knowledge.ts). */
  maxChunks: 50_000,
  /** Knowledge bases per workspace. */
  maxKnowledgeBases: 100,
  /** A web page fetched by URL: bounded in bytes and time. */
  maxPageBytes: 2 * MiB,
  pageTimeoutMs: 10_000,
  /** Chunks an agent or a query may ask for. */
  maxK: 20,
} as const;

export const DOCUMENT_STATUSES = ['processing', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const DOCUMENT_FORMATS = ['text', 'markdown', 'html', 'csv', 'docx', 'pdf', 'url'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** The stored knowledge base. */
export interface KnowledgeBase {
  _id: string;
  name: string;
  description: string;
  workspaceId: string;
  /** The embeddings model its vectors were made with (a query must use the same). */
  embeddingModel: string;
  dimensions: number;
  createdAt: string;
  updatedAt: string;
}

/** The stored document: its status, and where its source and index segment live in the bucket. */
export interface KnowledgeDocument {
  _id: string;
  knowledgeBaseId: string;
  workspaceId: string;
  name: string;
  format: DocumentFormat;
  status: DocumentStatus;
  /** Why ingestion failed (status `failed`). */
  error?: string;
  /** Bytes of the source as uploaded or fetched. */
  sizeBytes: number;
  /** The URL of a web-page document. */
  url?: string;
  chunks?: number;
  characters?: number;
  /** Bumped by every re-index, so a stale worker's segment is never taken for the current one. */
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export const KnowledgeBaseCreate = z
  .strictObject({
    name: Name,
    description: z.string().max(1_000).default(''),
    workspaceId: BodyWorkspaceId,
  })
  .meta({ id: 'KnowledgeBaseCreate' });
export type KnowledgeBaseCreate = z.infer<typeof KnowledgeBaseCreate>;

export const KnowledgeBaseView = z
  .object({
    _id: z.string(),
    name: z.string(),
    description: z.string(),
    workspaceId: z.string(),
    embeddingModel: z.string(),
    dimensions: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'KnowledgeBase' });

export const KnowledgeDocumentView = z
  .object({
    _id: z.string(),
    knowledgeBaseId: z.string(),
    name: z.string(),
    format: z.enum(DOCUMENT_FORMATS),
    status: z.enum(DOCUMENT_STATUSES),
    error: z.string().optional().describe('why ingestion failed (status failed)'),
    sizeBytes: z.number().int(),
    url: z.string().optional(),
    chunks: z.number().int().optional(),
    characters: z.number().int().optional(),
    revision: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'KnowledgeDocument' });

/** POST /api/knowledge-bases/{id}/documents as JSON: plain text, or a web page by URL. */
export const KnowledgeDocumentCreate = z
  .strictObject({
    name: Name.optional(),
    text: z.string().min(1).max(KNOWLEDGE_LIMITS.maxTextChars).optional(),
    url: z.url({ protocol: /^https?$/ }).max(2_000).optional(),
    workspaceId: BodyWorkspaceId,
  })
  .superRefine((v, ctx) => {
    if ((v.text === undefined) === (v.url === undefined)) ctx.addIssue({ code: 'custom', path: ['text'], message: 'send exactly one of text or url' });
    if (v.text !== undefined && v.name === undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: 'a text document needs a name' });
  })
  .meta({ id: 'KnowledgeDocumentCreate' });
export type KnowledgeDocumentCreate = z.infer<typeof KnowledgeDocumentCreate>;

/** The upload form (multipart): one file. */
export const KnowledgeUploadForm = z
  .object({
    file: z.file().describe('PDF, DOCX, TXT, Markdown, HTML or CSV (UTF-8); at most 4 MiB and 500 pages'),
    workspaceId: z.string().min(1).max(64).optional(),
    name: z.string().max(200).optional(),
  })
  .meta({ id: 'KnowledgeUploadForm' });

export const KnowledgeUploadFields = z.strictObject({
  workspaceId: z.string().min(1).max(64).optional(),
  name: z.string().trim().min(1).max(200).optional(),
});

export const KnowledgeQuery = z
  .strictObject({
    query: z.string().trim().min(1).max(2_000),
    k: z.number().int().min(1).max(KNOWLEDGE_LIMITS.maxK).default(5),
    workspaceId: BodyWorkspaceId,
  })
  .meta({ id: 'KnowledgeQuery' });
export type KnowledgeQuery = z.infer<typeof KnowledgeQuery>;

/** One retrieved chunk and where it came from. */
export const KnowledgeHit = z
  .object({
    chunkId: z.string(),
    documentId: z.string(),
    documentName: z.string(),
    text: z.string(),
    score: z.number().describe('fused score (reciprocal rank fusion of vector and keyword ranks), higher is better'),
    vectorScore: z.number().describe('cosine similarity of the query and chunk embeddings'),
    keywordScore: z.number().describe('BM25 score of the query words in the chunk (0: no word in common)'),
    section: z.string().optional().describe('the heading path the chunk sits under'),
    page: z.number().int().optional(),
    start: z.number().int().describe('offset of the chunk in the document text, in characters'),
    end: z.number().int(),
  })
  .meta({ id: 'KnowledgeHit' });
export type KnowledgeHit = z.infer<typeof KnowledgeHit>;

export const KnowledgeQueryResult = z.object({ data: z.array(KnowledgeHit) });

/** What the ingestion queue carries: one document to (re-)index at one revision. */
export const IngestMessage = z.object({
  workspaceId: z.string().min(1),
  knowledgeBaseId: z.string().min(1),
  documentId: z.string().min(1),
  revision: z.number().int().min(1),
});
export type IngestMessage = z.infer<typeof IngestMessage>;

/** Agents: how the knowledge bases are used in a conversation. */
export const KNOWLEDGE_BASE_MODES = ['auto', 'tool'] as const;
export type KnowledgeBaseMode = (typeof KNOWLEDGE_BASE_MODES)[number];

/** Knowledge bases one agent may name. */
export const MAX_AGENT_KNOWLEDGE_BASES = 10;

/** `/api/knowledge-bases/{id}/documents/{documentId}`. */
export const KnowledgeDocumentParams = z.object({ id: z.string().min(1).max(64), documentId: z.string().min(1).max(64) });

export const KnowledgeBaseDetail = KnowledgeBaseView.extend({ documents: z.array(KnowledgeDocumentView) }).meta({ id: 'KnowledgeBaseDetail' });

/** One retrieval an answer used (the history record's `knowledge`): which chunks went to the model, and why. */
export const KnowledgeUseView = z
  .object({
    turn: z.number().int().describe('the agent turn (0-based, counting agent turns) the chunks were given to'),
    mode: z.enum(KNOWLEDGE_BASE_MODES),
    query: z.string(),
    chunks: z.array(
      z.object({
        chunkId: z.string(),
        documentId: z.string(),
        documentName: z.string(),
        section: z.string().optional(),
        page: z.number().int().optional(),
        score: z.number(),
      }),
    ),
  });
export type KnowledgeUse = z.infer<typeof KnowledgeUseView>;
