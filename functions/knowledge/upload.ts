import { AppError } from '../../lib/domain/errors.js';
import { KNOWLEDGE_LIMITS } from '../../lib/domain/knowledge/schema.js';
import { defineRoute } from '../../lib/http/handler.js';
import { readMultipartForm } from '../../lib/http/multipart.js';
import { KNOWLEDGE_ROUTES } from '../../lib/infra/routes/knowledge.js';
import { addUploadedDocument, knowledgeDepsOf } from '../../lib/services/knowledge.js';

/** POST /api/knowledge-bases/{id}/documents/upload: a multipart form with `file` (and optionally `name`, `workspaceId`). */
export const handler = defineRoute(KNOWLEDGE_ROUTES.uploadKnowledgeDocument, async ({ deps, workspaceId, params, event }) => {
  const form = await readMultipartForm(event, {
    fileField: 'file',
    maxFileBytes: KNOWLEDGE_LIMITS.maxFileBytes,
    tooLarge: () => new AppError(413, 'file_too_large', `The file is larger than ${KNOWLEDGE_LIMITS.maxFileBytes / 1024 / 1024} MiB.`, [{ field: 'file', message: 'file too large', limitBytes: KNOWLEDGE_LIMITS.maxFileBytes }]),
  });
  return addUploadedDocument(knowledgeDepsOf(deps), workspaceId, params.id, form);
});
