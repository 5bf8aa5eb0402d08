import { RecordingUrl } from '../../domain/call.js';
import { IdParams, pageEnvelope } from '../../domain/common.js';
import { HistoryListItem, HistoryListQuery, HistoryView } from '../../domain/history.js';
import { CallEventsView, MAX_CALL_EVENTS } from '../../domain/call-timeline.js';
import { listQuery, route, type RouteSpec } from '../route-spec.js';
import { withMetadataFilters } from '../../domain/call-metadata.js';

/** The history routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const HISTORY_ROUTES = {
  listHistory: route({ method: 'GET', path: '/api/history', entry: 'functions/history/routes.ts', summary: 'List call history, newest first, with filters; metadata.<key>=<value> (up to 5) keeps the calls whose metadata has that value (docs/calls.md)', tag: 'History', auth: true, query: withMetadataFilters(listQuery(HistoryListQuery)), status: 200, response: pageEnvelope(HistoryListItem) }),
  getHistory: route({ method: 'GET', path: '/api/history/{id}', entry: 'functions/history/routes.ts', summary: 'Get one call record with transcript', tag: 'History', auth: true, params: IdParams, status: 200, response: HistoryView }),
  getHistoryEvents: route({ method: 'GET', path: '/api/history/{id}/events', entry: 'functions/history/routes.ts', summary: `The call's event timeline: vendor connects and fallbacks, turns with their latencies, interruptions, tool calls, transfers, errors and the end, in time order (at most ${MAX_CALL_EVENTS}; docs/calls.md, "Event timeline")`, tag: 'History', auth: true, params: IdParams, status: 200, response: CallEventsView }),
  deleteHistory: route({ method: 'DELETE', path: '/api/history/{id}', entry: 'functions/history/routes.ts', summary: 'Delete a call record', tag: 'History', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),
  getRecordingUrl: route({ method: 'GET', path: '/api/history/{id}/recording-url', entry: 'functions/history/recording-url.ts', summary: 'A presigned download URL for the call recording, valid 15 minutes', tag: 'History', auth: true, params: IdParams, status: 200, response: RecordingUrl }),
} as const satisfies Record<string, RouteSpec>;
