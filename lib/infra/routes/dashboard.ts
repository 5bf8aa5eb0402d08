import * as z from 'zod';
import { IdParams } from '../../domain/common.js';
import { CreditsView, InvitationCreate, InvitationCreated, KeyCreate, KeyCreated, KeyView, MemberView, WorkspaceCreate, WorkspaceCreated } from '../../domain/dashboard.js';
import { WorkspaceQuery, route, type RouteSpec } from '../route-spec.js';

/** The dashboard routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const DASHBOARD_ROUTES = {
  // For signed-in dashboard users (a session key as x-api-key); API keys cannot manage keys or members.
  listApiKeys: route({ method: 'GET', path: '/api/keys', entry: 'functions/dashboard/index.ts', summary: "List the workspace's API keys (never their values); owners only, with a session key", tag: 'Dashboard', auth: true, access: 'owner', status: 200, response: z.object({ data: z.array(KeyView) }) }),
  createApiKey: route({ method: 'POST', path: '/api/keys', entry: 'functions/dashboard/index.ts', summary: 'Create an API key (full or widget); its value is shown once, in this answer; owners only, with a session key', tag: 'Dashboard', auth: true, access: 'owner', body: KeyCreate, status: 201, response: KeyCreated }),
  revokeApiKey: route({ method: 'DELETE', path: '/api/keys/{id}', entry: 'functions/dashboard/index.ts', summary: 'Revoke an API key: refused from its next request on; owners only, with a session key', tag: 'Dashboard', auth: true, access: 'owner', params: IdParams, bodyKind: 'none', status: 204 }),
  listMembers: route({ method: 'GET', path: '/api/members', entry: 'functions/dashboard/index.ts', summary: "The workspace's members and their roles (session key)", tag: 'Dashboard', auth: true, access: 'user', status: 200, response: z.object({ data: z.array(MemberView) }) }),
  createInvitation: route({ method: 'POST', path: '/api/invitations', entry: 'functions/dashboard/index.ts', summary: 'Invite an email address to the workspace; answers the invitation link (owners only, with a session key)', tag: 'Dashboard', auth: true, access: 'owner', body: InvitationCreate, status: 201, response: InvitationCreated }),
  createUserWorkspace: route({ method: 'POST', path: '/api/workspaces', entry: 'functions/dashboard/index.ts', summary: 'Create another workspace, owned by the signed-in user (session key); switch to it with /auth/refresh', tag: 'Dashboard', auth: true, access: 'user', body: WorkspaceCreate, status: 201, response: WorkspaceCreated }),
  getCredits: route({ method: 'GET', path: '/api/credits', entry: 'functions/dashboard/index.ts', summary: 'Credit balance, reserved credits and usage per day over the last 30 days', tag: 'Credits', auth: true, query: WorkspaceQuery, status: 200, response: CreditsView }),
} as const satisfies Record<string, RouteSpec>;
