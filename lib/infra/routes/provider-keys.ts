import * as z from 'zod';
import { ProviderKeySet, ProviderKeyTested, ProviderKeyView, ProviderParams } from '../../domain/provider-key.js';
import { StandInsQuery, StandInsView } from '../../domain/stand-ins.js';
import { WorkspaceQuery, route, type RouteSpec } from '../route-spec.js';

/** The provider keys routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const PROVIDER_KEYS_ROUTES = {
  // A workspace's own vendor keys (docs/provider-keys.md): set, list masked, test, delete; never read back.
  listProviderKeys: route({ method: 'GET', path: '/api/provider-keys', entry: 'functions/provider-keys/routes.ts', summary: "List the workspace's own vendor keys, masked (vendor, last four characters, dates, last test)", tag: 'Provider keys', auth: true, query: WorkspaceQuery, status: 200, response: z.object({ data: z.array(ProviderKeyView) }) }),
  setProviderKey: route({ method: 'PUT', path: '/api/provider-keys/{provider}', entry: 'functions/provider-keys/routes.ts', summary: "Set (or replace) the workspace's own key at a vendor; its calls then use it and are not charged that vendor's share", tag: 'Provider keys', auth: true, params: ProviderParams, body: ProviderKeySet, status: 200, response: ProviderKeyView }),
  testProviderKey: route({ method: 'POST', path: '/api/provider-keys/{provider}/test', entry: 'functions/provider-keys/routes.ts', summary: "Test the stored key with the vendor's cheapest authenticated request; the verdict is kept on the key", tag: 'Provider keys', auth: true, params: ProviderParams, bodyKind: 'none', status: 200, response: ProviderKeyTested }),
  deleteProviderKey: route({ method: 'DELETE', path: '/api/provider-keys/{provider}', entry: 'functions/provider-keys/routes.ts', summary: "Delete the workspace's key at a vendor; its calls go back to the platform's key", tag: 'Provider keys', auth: true, params: ProviderParams, bodyKind: 'none', status: 204 }),
  // Which vendors are simulated (the stand-ins the deployment declares: STAND_IN_VENDORS), so a page can say so and name the key that makes each real.
  listStandIns: route({ method: 'GET', path: '/api/stand-ins', entry: 'functions/provider-keys/routes.ts', summary: "The platform's simulated vendors (the stand-ins npm start runs), or one agent's with `agentId`: what each is and the key variable that makes it real. `simulated` is false on real vendors", tag: 'Provider keys', auth: true, query: StandInsQuery, status: 200, response: StandInsView }),
} as const satisfies Record<string, RouteSpec>;
