import type { Deps } from '../deps.js';
import { notAMember, type Role, type Session, type WorkspaceRef } from '../domain/dashboard.js';
import { describeError, log } from '../observability/log.js';
import {
  acceptInvitation as acceptStoredInvitation,
  createOwnedWorkspace,
  createInvitation,
  createSessionKey,
  deletePendingSignUp,
  findPendingSignUp,
  findUser,
  listMemberships,
  provisionUser,
  revokeSessionKeys,
  savePendingSignUp,
  setLastWorkspace,
} from '../store/users.js';
import { createCognitoIdentity, type IdentityProvider, type IdentityUser } from '../vendors/identity/cognito.js';

/**
 * The dashboard's account use cases (docs/dashboard.md): sign-up and its confirmation, sign-in, refresh
 * and workspace switch, sign-out, password reset, invitations. Passwords and tokens go to Cognito and back;
 * what the platform keeps is users, memberships and short-lived session keys.
 */

type AuthDeps = Pick<Deps, 'db' | 'config'>;

let identity: { config: Deps['config']; provider: IdentityProvider } | undefined;

/** The identity provider of these deps' config, built once (only the auth routes import the Cognito SDK). */
export function identityOf(deps: AuthDeps): IdentityProvider {
  if (identity?.config !== deps.config) identity = { config: deps.config, provider: createCognitoIdentity(deps.config) };
  return identity.provider;
}

/** A workspace name for a user who never gave one (made in the Cognito console, or whose sign-up record expired). */
const defaultWorkspaceName = (email: string) => `${email.split('@')[0]}'s workspace`;

/** The user's profile and first workspace exist after this (see provisionUser). */
async function ensureProvisioned(deps: AuthDeps, user: IdentityUser): Promise<void> {
  if (await findUser(deps.db, user.userId)) return;
  const pending = await findPendingSignUp(deps.db, user.email);
  const workspaceName = pending?.userId === user.userId ? pending.workspaceName : defaultWorkspaceName(user.email);
  await provisionUser(deps.db, { ...user, workspaceName, credits: deps.config.SIGNUP_CREDITS });
  if (pending) await deletePendingSignUp(deps.db, user.email);
}

/**
 * A session key for the user in `workspaceId`, or (none asked) the workspace they last used, else their
 * first. Asking for a workspace they are not in is `not_a_member`.
 */
export async function openSession(deps: AuthDeps, user: IdentityUser, workspaceId?: string): Promise<Session> {
  const [profile, workspaces] = await Promise.all([findUser(deps.db, user.userId), listMemberships(deps.db, user.userId)]);
  const wanted = workspaceId ?? profile?.lastWorkspaceId;
  const workspace: WorkspaceRef | undefined = workspaces.find((w) => w.id === wanted) ?? (workspaceId ? undefined : workspaces[0]);
  if (!workspace) throw notAMember();
  const key = await createSessionKey(deps.db, { userId: user.userId, workspaceId: workspace.id, role: workspace.role });
  if (profile && profile.lastWorkspaceId !== workspace.id) await setLastWorkspace(deps.db, user.userId, workspace.id);
  return { apiKey: key.apiKey, expiresAt: key.expiresAt, user: { id: user.userId, email: user.email }, workspace, workspaces };
}

/**
 * A new account, waiting for its emailed code. An address that has an account already gets the same answer
 * (as Cognito's "prevent user existence errors" does elsewhere: the endpoint must not tell who has an
 * account), and that account gets a notice by email instead (noticeExistingAccount); nothing of it changes.
 */
export async function signUp(deps: AuthDeps, body: { email: string; password: string; workspaceName: string }): Promise<{ confirmationRequired: true }> {
  const provider = identityOf(deps);
  const outcome = await provider.signUp(body.email, body.password);
  if (outcome.created) await savePendingSignUp(deps.db, { email: body.email, userId: outcome.userId, workspaceName: body.workspaceName });
  else await noticeExistingAccount(deps, provider, body.email);
  return { confirmationRequired: true };
}

/** The notice is best effort: a refusal (Cognito's mail limits, say) must not show in the answer either. */
async function noticeExistingAccount(deps: AuthDeps, provider: IdentityProvider, email: string): Promise<void> {
  try {
    await provider.noticeExistingAccount(email);
    // Locally cognito-local prints the code it "sent"; this says why a code came instead of an account.
    if (deps.config.COGNITO_ENDPOINT) log('info', 'sign-up of an address that has an account: a code was sent to it instead (local platform)', { email });
  } catch (error) {
    log('warn', 'sign-up notice to an existing account not sent', describeError(error));
  }
}

/** Confirms the email with its code; the user's workspace is made now (or, if this step is lost, at first sign-in). */
export async function confirmSignUp(deps: AuthDeps, body: { email: string; code: string }): Promise<void> {
  await identityOf(deps).confirmSignUp(body.email, body.code);
  const pending = await findPendingSignUp(deps.db, body.email);
  if (!pending) return;
  await provisionUser(deps.db, { userId: pending.userId, email: body.email, workspaceName: pending.workspaceName, credits: deps.config.SIGNUP_CREDITS });
  await deletePendingSignUp(deps.db, body.email);
}

export async function signIn(deps: AuthDeps, body: { email: string; password: string }): Promise<{ session: Session; refreshToken: string }> {
  const { user, refreshToken } = await identityOf(deps).signIn(body.email, body.password);
  await ensureProvisioned(deps, user);
  return { session: await openSession(deps, user), refreshToken };
}

export async function refreshSession(deps: AuthDeps, refreshToken: string, workspaceId?: string): Promise<Session> {
  const user = await identityOf(deps).refresh(refreshToken);
  await ensureProvisioned(deps, user);
  return openSession(deps, user, workspaceId);
}

/**
 * Ends the user's sessions: every session key is deleted and the refresh token revoked. A cookie that no
 * longer works ends nothing more, and the answer is the same (the cookie is cleared either way).
 */
export async function signOut(deps: AuthDeps, refreshToken: string): Promise<void> {
  const provider = identityOf(deps);
  const user = await provider.refresh(refreshToken).catch(() => undefined);
  if (user) await revokeSessionKeys(deps.db, user.userId);
  await provider.revoke(refreshToken);
}

export const forgotPassword = (deps: AuthDeps, body: { email: string }) => identityOf(deps).forgotPassword(body.email);

/** A new sign-up confirmation code for an address waiting for one; every other address answers the same. */
export const resendConfirmationCode = (deps: AuthDeps, body: { email: string }) => identityOf(deps).resendConfirmationCode(body.email);

export const resetPassword = (deps: AuthDeps, body: { email: string; code: string; password: string }) =>
  identityOf(deps).resetPassword(body.email, body.code, body.password);

/** Joins the invitation's workspace (the signed-in user's email must be the invited one) and opens a session there. */
export async function acceptInvitation(deps: AuthDeps, refreshToken: string, token: string): Promise<Session> {
  const user = await identityOf(deps).refresh(refreshToken);
  await ensureProvisioned(deps, user);
  const workspace = await acceptStoredInvitation(deps.db, token, user);
  return openSession(deps, user, workspace.id);
}

/**
 * Invites an email address to the workspace. The link carries the token in its fragment, which browsers
 * never send to a server (so no access log or Referer holds it). Locally the link is printed for the
 * developer; on AWS it is shown to the owner, who sends it on (docs/dashboard.md, "Invitations").
 */
export async function invite(
  deps: AuthDeps,
  input: { workspaceId: string; email: string; role: Role; invitedBy: string },
): Promise<{ invitation: { id: string; email: string; role: Role; link: string; expiresAt: string } }> {
  const memberships = await listMemberships(deps.db, input.invitedBy);
  const workspaceName = memberships.find((w) => w.id === input.workspaceId)?.name ?? '';
  const created = await createInvitation(deps.db, { ...input, workspaceName });
  // The pages' origin (CloudFront on AWS) when it differs from the API's.
  const base = deps.config.DASHBOARD_ORIGINS[0] ?? deps.config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  const link = `${base}/dashboard/accept-invitation#token=${created.token}`;
  if (deps.config.COGNITO_ENDPOINT) log('info', 'invitation link (local platform)', { email: input.email, workspaceId: input.workspaceId, link });
  return { invitation: { id: created.id, email: input.email, role: input.role, link, expiresAt: created.expiresAt } };
}

/**
 * Another workspace for a signed-in user, who owns it. It starts with no credits: the sign-up grant is
 * once per account, or making workspaces would mint credits.
 */
export async function createUserWorkspace(deps: AuthDeps, userId: string, name: string): Promise<WorkspaceRef> {
  const user = await findUser(deps.db, userId);
  if (!user) throw notAMember();
  return createOwnedWorkspace(deps.db, user, name, 0);
}
