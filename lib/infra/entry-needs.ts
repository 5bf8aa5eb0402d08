import { WORKBOOK_LIBS_FILE, WORKBOOK_LIBS_SOURCE } from '../domain/contact-import/xlsx.js';
import { MCP_LIBS_FILE, MCP_LIBS_SOURCE } from '../outbound/mcp.js';
import { EMBEDDINGS_LIBS_FILE, EMBEDDINGS_LIBS_SOURCE } from '../vendors/embeddings/openai.js';
import { PDF_LIBS_FILE, PDF_LIBS_SOURCE } from '../domain/knowledge/pdf.js';
import type { BundleFile, BundleModule } from './bundling.js';
import type { QueueAccess, RecordingsAccess, TableAccess } from './constructs/bindings.js';
import { DOCS_ASSETS_DIR, DOCS_ASSETS_SOURCE, DOCS_ASSET_FILES } from './docs-assets.js';
import { MEETING_ASSETS_DIR, MEETING_ASSETS_SOURCE, MEETING_ASSET_FILES } from '../web/meeting/assets.js';
import { ROUTES, type RouteSpec } from './routes.js';
import { WIDGET_ASSETS_DIR, WIDGET_ASSETS_SOURCE, WIDGET_SCRIPT } from '../web/widget/assets.js';

/** Every handler module named in the route table (a literal union: a typo below fails the typecheck). */
export type RouteEntry = (typeof ROUTES)[keyof typeof ROUTES]['entry'];

/**
 * What one route handler needs beyond the defaults. Every route function gets the data-key secret (the
 * composition root in lib/deps.ts loads it on cold start) and the public base URL. The table defaults to
 * read-only when every route of the entry is a GET (safe by HTTP semantics) and read-write otherwise.
 * Recordings and the dispatch queue are granted to nobody unless named here.
 */
export interface EntryNeeds {
  /** `none` for handlers that never touch the table. */
  readonly table?: TableAccess | 'none';
  readonly recordings?: RecordingsAccess;
  /** A route only ever sends (e.g. `phone-call`); consuming is the dispatch consumer's job. */
  readonly dispatch?: Extract<QueueAccess, 'send'>;
  /** Publishes webhook events (queues their deliveries): every path that ends a call, releases a number, imports. */
  readonly webhooks?: 'send';
  /** Reads the platform's own Twilio credentials (TWILIO_SECRET_ARN): searching, buying and releasing numbers, verifying webhooks. */
  readonly twilioCredentials?: true;
  /** Knowledge bases: the bucket's `workspaces/*` and the ingestion queue (bindKnowledge). */
  readonly knowledge?: true;
  /** Starts agent-test runs: the run queue (AGENT_TEST_QUEUE_URL, send). */
  readonly agentTests?: 'send';
  readonly timeoutSeconds?: number;
  readonly memoryMiB?: number;
  readonly bundleFiles?: readonly BundleFile[];
  /** Modules built beside the bundle and loaded on first use (lib/infra/bundling.ts, BundleModule). */
  readonly bundleModules?: readonly BundleModule[];
}

/**
 * The per-entry exceptions, kept beside the route table so a new route states its needs in one place.
 * A GET that writes must say `table: 'readWrite'` here: the local platform does not enforce IAM, so
 * forgetting shows up only as AccessDenied on AWS. (Rate-limit counters are granted apart, see bindRateLimits.)
 */
export const ENTRY_NEEDS: Partial<Record<RouteEntry, EntryNeeds>> = {
  // A call whose dispatch message cannot be sent is ended at once, which announces call.ended.
  'functions/calls/start.ts': { dispatch: 'send', webhooks: 'send', timeoutSeconds: 29 },
  // An import of 10,000 rows writes for several seconds; the service stops starting writes after 20 s
  // (docs/contact-import.md) and reports the rest, so 29 s (under HTTP API's 30 s) always answers.
  // The workbook libraries (~65 KB) sit beside the bundle and load on the first .xlsx (lib/domain/contact-import/xlsx.ts):
  // most uploads are CSV, and every cold start would parse them otherwise (issue 17: bundles <= 500 KB).
  'functions/contacts/upload.ts': {
    timeoutSeconds: 29,
    webhooks: 'send',
    bundleModules: [{ from: WORKBOOK_LIBS_SOURCE, to: WORKBOOK_LIBS_FILE }],
  },
  // A campaign of 10,000 contacts, or a do-not-call file of 10,000 numbers, writes for several seconds.
  'functions/campaigns/routes.ts': { timeoutSeconds: 29 },
  'functions/dnc/routes.ts': { timeoutSeconds: 29 },
  // Starting a test run queues it for the run consumer (docs/agent-tests.md).
  'functions/agent-tests/routes.ts': { agentTests: 'send' },
  // Saving or refreshing an mcp tool lists its server's tools (up to 8 s: lib/services/mcp-discovery.ts).
  // The MCP SDK (~300 KB with its validator) sits beside the bundle and loads on the first mcp tool saved
  // (lib/outbound/mcp.ts, loadMcpLibs): the other tool routes never parse it.
  'functions/tools/routes.ts': { timeoutSeconds: 15, bundleModules: [{ from: MCP_LIBS_SOURCE, to: MCP_LIBS_FILE }] },
  // A query embeds its words: the openai SDK (~350 KB) sits beside the bundle and loads on the first query
  // (lib/vendors/embeddings/openai.ts). Deleting a base deletes its objects.
  'functions/knowledge/routes.ts': { knowledge: true, timeoutSeconds: 29, bundleModules: [{ from: EMBEDDINGS_LIBS_SOURCE, to: EMBEDDINGS_LIBS_FILE }] },
  // An upload is read before it is accepted: PDF.js (over a megabyte) sits beside the bundle and loads on the first PDF.
  'functions/knowledge/upload.ts': { knowledge: true, timeoutSeconds: 29, bundleModules: [{ from: PDF_LIBS_SOURCE, to: PDF_LIBS_FILE }] },
  // A test event and a replay are deliveries sent through the queue.
  'functions/webhooks/routes.ts': { webhooks: 'send' },
  // Presigning needs read: the URL carries the signer's permissions.
  'functions/history/recording-url.ts': { recordings: 'read' },
  'functions/docs/openapi.ts': { table: 'none' },
  'functions/docs/home.ts': { table: 'none' },
  'functions/phone-numbers/available.ts': { twilioCredentials: true },
  'functions/phone-numbers/buy.ts': { twilioCredentials: true },
  'functions/phone-numbers/delete.ts': { twilioCredentials: true, webhooks: 'send' },
  // An inbound call's reservation may cross the workspace's low-credits threshold (credits.low).
  'functions/twilio/voice.ts': { twilioCredentials: true, webhooks: 'send' },
  // A final status of a call that never streamed writes its history record and announces call.ended.
  'functions/twilio/status.ts': { twilioCredentials: true, webhooks: 'send' },
  // Hangs up or redirects the call (leaving the voicemail message) through the platform's account.
  'functions/twilio/amd.ts': { twilioCredentials: true },
  // Bridges the caller into the warm transfer's conference through the platform's account.
  'functions/twilio/transfer.ts': { twilioCredentials: true },
  'functions/docs/page.ts': {
    table: 'none',
    bundleFiles: DOCS_ASSET_FILES.map((file) => ({
      from: `${DOCS_ASSETS_SOURCE}/${file}`,
      to: `${DOCS_ASSETS_DIR}/${file}`,
    })),
  },
  'functions/meeting/assets.ts': {
    table: 'none',
    bundleFiles: Object.keys(MEETING_ASSET_FILES).map((file) => ({
      from: `${MEETING_ASSETS_SOURCE}/${file}`,
      to: `${MEETING_ASSETS_DIR}/${file}`,
    })),
  },
  'functions/widget/loader.ts': {
    table: 'none',
    bundleFiles: [{ from: `${WIDGET_ASSETS_SOURCE}/${WIDGET_SCRIPT}`, to: `${WIDGET_ASSETS_DIR}/${WIDGET_SCRIPT}` }],
  },
};

/** One resolved function: its entry, the routes it serves and its needs with defaults applied. */
export interface RouteFunctionPlan {
  readonly entry: RouteEntry;
  readonly routes: readonly RouteSpec[];
  readonly needs: EntryNeeds & { readonly table: TableAccess | 'none' };
}

/** Groups the route table by entry (several routes may share a handler) and resolves each entry's needs. */
export function planRouteFunctions(
  routes: Readonly<Record<string, RouteSpec>> = ROUTES,
  needs: Readonly<Partial<Record<string, EntryNeeds>>> = ENTRY_NEEDS,
): RouteFunctionPlan[] {
  const byEntry = new Map<string, RouteSpec[]>();
  for (const route of Object.values(routes)) {
    const list = byEntry.get(route.entry) ?? [];
    list.push(route);
    byEntry.set(route.entry, list);
  }
  for (const entry of Object.keys(needs)) {
    // A stale key would silently grant nothing to the renamed handler.
    if (!byEntry.has(entry)) throw new Error(`ENTRY_NEEDS names ${entry}, which no route uses`);
  }
  return [...byEntry].map(([entry, entryRoutes]) => {
    const own = needs[entry] ?? {};
    const readOnly = entryRoutes.every((r) => r.method === 'GET');
    return {
      entry: entry as RouteEntry,
      routes: entryRoutes,
      needs: { ...own, table: own.table ?? (readOnly ? 'read' : 'readWrite') },
    };
  });
}
