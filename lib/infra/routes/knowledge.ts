import * as z from 'zod';
import { IdParams } from '../../domain/common.js';
import {
  KnowledgeBaseCreate,
  KnowledgeBaseDetail,
  KnowledgeBaseView,
  KnowledgeDocumentCreate,
  KnowledgeDocumentParams,
  KnowledgeDocumentView,
  KnowledgeQuery,
  KnowledgeQueryResult,
  KnowledgeUploadForm,
} from '../../domain/knowledge/schema.js';
import { WorkspaceQuery, route, type RouteSpec } from '../route-spec.js';

const entry = 'functions/knowledge/routes.ts';
const tag = 'Knowledge';

/** The knowledge routes (docs/knowledge.md), assembled into the one table by lib/infra/routes.ts. */
export const KNOWLEDGE_ROUTES = {
  createKnowledgeBase: route({ method: 'POST', path: '/api/knowledge-bases', entry, summary: 'Create a knowledge base', tag, auth: true, body: KnowledgeBaseCreate, errors: [409], status: 201, response: KnowledgeBaseView }),
  listKnowledgeBases: route({ method: 'GET', path: '/api/knowledge-bases', entry, summary: 'List knowledge bases, newest first (no pagination: at most 100)', tag, auth: true, query: WorkspaceQuery, status: 200, response: z.object({ data: z.array(KnowledgeBaseView) }) }),
  getKnowledgeBase: route({ method: 'GET', path: '/api/knowledge-bases/{id}', entry, summary: 'Get a knowledge base with its documents and their ingestion status', tag, auth: true, params: IdParams, status: 200, response: KnowledgeBaseDetail }),
  deleteKnowledgeBase: route({ method: 'DELETE', path: '/api/knowledge-bases/{id}', entry, summary: 'Delete a knowledge base, its documents, chunks and vectors', tag, auth: true, params: IdParams, bodyKind: 'none', status: 204 }),
  createKnowledgeDocument: route({ method: 'POST', path: '/api/knowledge-bases/{id}/documents', entry, summary: 'Add plain text or a web page by URL; ingested in the background (status processing, then ready or failed)', tag, auth: true, params: IdParams, body: KnowledgeDocumentCreate, errors: [409], status: 201, response: KnowledgeDocumentView }),
  uploadKnowledgeDocument: route({ method: 'POST', path: '/api/knowledge-bases/{id}/documents/upload', entry: 'functions/knowledge/upload.ts', summary: 'Upload a document (TXT, Markdown, HTML, CSV, DOCX; at most 4 MiB); ingested in the background', tag, auth: true, params: IdParams, bodyKind: 'raw', consumes: 'multipart/form-data', form: KnowledgeUploadForm, errors: [409, 413, 415], status: 201, response: KnowledgeDocumentView }),
  listKnowledgeDocuments: route({ method: 'GET', path: '/api/knowledge-bases/{id}/documents', entry, summary: 'List the documents of a knowledge base, newest first', tag, auth: true, params: IdParams, query: WorkspaceQuery, status: 200, response: z.object({ data: z.array(KnowledgeDocumentView) }) }),
  getKnowledgeDocument: route({ method: 'GET', path: '/api/knowledge-bases/{id}/documents/{documentId}', entry, summary: 'Get a document and its ingestion status', tag, auth: true, params: KnowledgeDocumentParams, status: 200, response: KnowledgeDocumentView }),
  reindexKnowledgeDocument: route({ method: 'POST', path: '/api/knowledge-bases/{id}/documents/{documentId}/reindex', entry, summary: 'Index a document again (a web page is fetched again); the old chunks serve until the new ones are ready', tag, auth: true, params: KnowledgeDocumentParams, bodyKind: 'none', status: 200, response: KnowledgeDocumentView }),
  deleteKnowledgeDocument: route({ method: 'DELETE', path: '/api/knowledge-bases/{id}/documents/{documentId}', entry, summary: 'Delete a document: its text, chunks and vectors', tag, auth: true, params: KnowledgeDocumentParams, bodyKind: 'none', status: 204 }),
  queryKnowledgeBase: route({ method: 'POST', path: '/api/knowledge-bases/{id}/query', entry, summary: 'Search a knowledge base: the best chunks with their scores and sources', tag, auth: true, params: IdParams, body: KnowledgeQuery, status: 200, response: KnowledgeQueryResult }),
} as const satisfies Record<string, RouteSpec>;
