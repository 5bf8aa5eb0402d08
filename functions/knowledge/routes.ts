import { defineRoute } from '../../lib/http/handler.js';
import { routeSwitch } from '../../lib/http/route-group.js';
import { KNOWLEDGE_ROUTES as R } from '../../lib/infra/routes/knowledge.js';
import {
  addJsonDocument,
  createKnowledgeBase,
  documentOf,
  documentsOf,
  knowledgeBasesOf,
  knowledgeDepsOf,
  knowledgeBaseWithDocuments,
  queryKnowledgeBase,
  reindexDocument,
  removeDocument,
  removeKnowledgeBase,
} from '../../lib/services/knowledge.js';

/** The knowledge routes, one function (docs/knowledge.md); the upload is functions/knowledge/upload.ts, with its multipart reader. */
export const handler = routeSwitch(R, {
  createKnowledgeBase: defineRoute(R.createKnowledgeBase, ({ deps, workspaceId, body }) => createKnowledgeBase(deps, workspaceId, body)),
  listKnowledgeBases: defineRoute(R.listKnowledgeBases, ({ deps, workspaceId }) => knowledgeBasesOf(deps.db, workspaceId)),
  getKnowledgeBase: defineRoute(R.getKnowledgeBase, ({ deps, workspaceId, params }) => knowledgeBaseWithDocuments(deps.db, workspaceId, params.id)),
  deleteKnowledgeBase: defineRoute(R.deleteKnowledgeBase, ({ deps, workspaceId, params }) => removeKnowledgeBase(knowledgeDepsOf(deps), workspaceId, params.id)),
  createKnowledgeDocument: defineRoute(R.createKnowledgeDocument, ({ deps, workspaceId, params, body }) => addJsonDocument(knowledgeDepsOf(deps), workspaceId, params.id, body)),
  listKnowledgeDocuments: defineRoute(R.listKnowledgeDocuments, ({ deps, workspaceId, params }) => documentsOf(deps.db, workspaceId, params.id)),
  getKnowledgeDocument: defineRoute(R.getKnowledgeDocument, ({ deps, workspaceId, params }) => documentOf(deps.db, workspaceId, params.id, params.documentId)),
  reindexKnowledgeDocument: defineRoute(R.reindexKnowledgeDocument, ({ deps, workspaceId, params }) => reindexDocument(knowledgeDepsOf(deps), workspaceId, params.id, params.documentId)),
  deleteKnowledgeDocument: defineRoute(R.deleteKnowledgeDocument, ({ deps, workspaceId, params }) => removeDocument(knowledgeDepsOf(deps), workspaceId, params.id, params.documentId)),
  queryKnowledgeBase: defineRoute(R.queryKnowledgeBase, ({ deps, workspaceId, params, body }) => queryKnowledgeBase(knowledgeDepsOf(deps), workspaceId, params.id, body)),
});
