import type { OperationId } from '../../infra/routes.js';
import { CREATED, EXAMPLE_IDS, UPDATED, WS, type OperationExamples } from './shared.js';

const KB = EXAMPLE_IDS.knowledgeBase;
const DOC = EXAMPLE_IDS.knowledgeDocument;

const base = {
  _id: KB,
  name: 'Front desk FAQ',
  description: 'Opening hours, parking, prices and insurance plans.',
  workspaceId: WS,
  embeddingModel: 'text-embedding-3-small',
  dimensions: 256,
  createdAt: CREATED,
  updatedAt: CREATED,
};
const processing = {
  _id: DOC,
  knowledgeBaseId: KB,
  name: 'Parking and hours',
  format: 'text',
  status: 'processing',
  sizeBytes: 214,
  revision: 1,
  createdAt: CREATED,
  updatedAt: CREATED,
};
const ready = { ...processing, status: 'ready', chunks: 2, characters: 214, updatedAt: UPDATED };
const hit = {
  chunkId: EXAMPLE_IDS.knowledgeChunk,
  documentId: DOC,
  documentName: 'Parking and hours',
  text: 'Free parking is available behind the building on Harbor Street; the first two hours are validated at reception.',
  score: 0.032787,
  vectorScore: 0.612344,
  keywordScore: 2.418,
  section: 'Parking',
  start: 96,
  end: 208,
};
const params = { id: KB };
const docParams = { id: KB, documentId: DOC };

/** The knowledge-base operations' examples (docs/knowledge.md). */
export const KNOWLEDGE_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  createKnowledgeBase: { request: { name: base.name, description: base.description }, response: base },
  listKnowledgeBases: { response: { data: [base] } },
  getKnowledgeBase: { params, response: { ...base, documents: [ready] } },
  createKnowledgeDocument: {
    params,
    request: { name: 'Parking and hours', text: 'Free parking is available behind the building on Harbor Street; the first two hours are validated at reception. We are open Monday to Friday, 8am to 6pm.' },
    response: processing,
  },
  uploadKnowledgeDocument: { params, response: { ...processing, name: 'faq.docx', format: 'docx', sizeBytes: 18_432 } },
  listKnowledgeDocuments: { params, response: { data: [ready] } },
  getKnowledgeDocument: { params: docParams, response: ready },
  reindexKnowledgeDocument: { params: docParams, response: { ...processing, revision: 2, updatedAt: UPDATED } },
  deleteKnowledgeDocument: { params: docParams },
  deleteKnowledgeBase: { params },
  queryKnowledgeBase: { params, request: { query: 'Where can I park?', k: 3 }, response: { data: [hit] } },
};
