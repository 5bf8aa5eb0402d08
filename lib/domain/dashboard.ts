import * as z from 'zod';
import { AppError } from './errors.js';

export { LAST_USED_RESOLUTION_MS, csrfRefused, jsonRequired, ownerRequired, sessionRequired, userSessionRequired } from './access.js';
import { canonicalOrigin } from './widget.js';
import { Name, Timestamp } from './common.js';
import { PASSWORD_POLICY } from './password-policy.js';

/**
 * The dashboard's accounts (docs/dashboard.md): users, their memberships of workspaces, session keys,
 * invitations, and the request and answer shapes of the auth endpoints and the user-only API.
 */

export const ROLES = ['owner', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** How long a session key works: short, because it sits in a page's memory; the page refreshes it silently. */
export const SESSION_KEY_TTL_MS = 15 * 60_000;
/**
 * Session keys one user holds at once; a new one revokes the oldest past this. Each open tab or device
 * holds one (two for a moment around its renewal), so ten serve a person's tabs and devices, while a
 * script that refreshes in a loop cannot pile up live keys (60 in 3 s made 60 before). A tab whose key
 * was revoked gets a 401, renews and carries on.
 */
export const MAX_LIVE_SESSION_KEYS = 10;
/** An invitation link works for a week: long enough to reach someone on holiday, short enough to lose its value. */
export const INVITATION_TTL_MS = 7 * 86_400_000;
/** A sign-up waits this long for its confirmation code (Cognito's codes live 24 hours). */
export const PENDING_SIGN_UP_TTL_MS = 86_400_000;

/** Emails compared and stored in one form (Cognito treats them case-insensitively too). */
export const Email = z.email().max(254).transform((e) => e.trim().toLowerCase());
/** The pool's policy (lib/domain/password-policy.ts) is checked by Cognito (or cognito-local) itself; this bounds the size. */
const Password = z.string().min(PASSWORD_POLICY.minLength).max(256);
const Code = z.string().trim().min(1).max(16);

export const SignUpBody = z.strictObject({ email: Email, password: Password, workspaceName: Name });
export const ConfirmSignUpBody = z.strictObject({ email: Email, code: Code });
export const SignInBody = z.strictObject({ email: Email, password: z.string().min(1).max(256) });
export const RefreshBody = z.strictObject({ workspaceId: z.string().min(1).max(64).optional() });
export const ForgotPasswordBody = z.strictObject({ email: Email });
export const ResendConfirmationCodeBody = z.strictObject({ email: Email });
export const ResetPasswordBody = z.strictObject({ email: Email, code: Code, password: Password });
export const AcceptInvitationBody = z.strictObject({ token: z.string().min(1).max(200) });

export const SignUpResult = z.object({ confirmationRequired: z.literal(true) });

const WorkspaceRef = z.object({ id: z.string(), name: z.string(), role: z.enum(ROLES) });
export type WorkspaceRef = z.infer<typeof WorkspaceRef>;

/** What sign-in, refresh and accepting an invitation answer: the session key and where it works. */
export const Session = z.object({
  apiKey: z.string(),
  expiresAt: Timestamp,
  user: z.object({ id: z.string(), email: z.string() }),
  workspace: WorkspaceRef,
  workspaces: z.array(WorkspaceRef),
});
export type Session = z.infer<typeof Session>;

const Origin = z.string().max(200).transform((text, ctx) => {
  const origin = canonicalOrigin(text);
  if (!origin) {
    ctx.addIssue({ code: 'custom', message: 'an origin such as https://shop.example (scheme, host and port only)' });
    return z.NEVER;
  }
  return origin;
});

export const KeyCreate = z
  .strictObject({
    name: Name,
    scope: z.enum(['full', 'widget']).default('full'),
    agentIds: z.array(z.string().min(1).max(64)).min(1).max(50).optional(),
    origins: z.array(Origin).min(1).max(20).optional(),
  })
  .superRefine((body, ctx) => {
    const widget = body.scope === 'widget';
    for (const field of ['agentIds', 'origins'] as const) {
      if (widget && !body[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'required for a widget key' });
      if (!widget && body[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'only for a widget key' });
    }
  });
export type KeyCreate = z.infer<typeof KeyCreate>;

export const KeyView = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(['full', 'widget']),
  prefix: z.string(),
  createdAt: Timestamp,
  lastUsedAt: Timestamp.nullable(),
  agentIds: z.array(z.string()).optional(),
  origins: z.array(z.string()).optional(),
});
export type KeyView = z.infer<typeof KeyView>;
export const KeyCreated = z.object({ key: KeyView, value: z.string() });

export const MemberView = z.object({ userId: z.string(), email: z.string(), role: z.enum(ROLES), joinedAt: Timestamp });
export type MemberView = z.infer<typeof MemberView>;

export const InvitationCreate = z.strictObject({ email: Email, role: z.enum(ROLES).default('member') });
export const InvitationCreated = z.object({
  invitation: z.object({ id: z.string(), email: z.string(), role: z.enum(ROLES), link: z.url(), expiresAt: Timestamp }),
});

export const WorkspaceCreate = z.strictObject({ name: Name });
export const WorkspaceCreated = z.object({ workspace: WorkspaceRef });

export const CreditsView = z.object({
  balance: z.number(),
  reserved: z.number(),
  usage: z.array(z.object({ day: z.iso.date(), credits: z.number(), calls: z.number().int() })),
});
export type CreditsView = z.infer<typeof CreditsView>;

// The errors of this part of the product, each with its stable code (docs/dashboard.md).
export const invalidCredentials = () => new AppError(401, 'invalid_credentials', 'The email or password is not right.');
export const userNotConfirmed = () =>
  new AppError(403, 'user_not_confirmed', 'Confirm your email address first: enter the code we sent you.');
export const emailTaken = () => new AppError(409, 'email_taken', 'An account with this email address exists already.');
export const invalidCode = () => new AppError(400, 'invalid_code', 'The code is wrong or has expired.');
export const weakPassword = (message: string) => new AppError(400, 'weak_password', message);
export const notAMember = () => new AppError(403, 'not_a_member', 'You are not a member of that workspace.');
export const invitationInvalid = () => new AppError(404, 'invitation_invalid', 'This invitation does not exist or has been used.');
export const invitationExpired = () => new AppError(410, 'invitation_expired', 'This invitation has expired; ask for a new one.');
export const invitationForAnother = () =>
  new AppError(403, 'invitation_for_another', 'This invitation was sent to another email address; sign in with that address.');
export const emailNotVerified = () =>
  new AppError(403, 'email_not_verified', 'Your email address is not verified, so it cannot accept an invitation sent to it; sign in with an account whose address is verified.');
export const alreadyMember = () => new AppError(409, 'already_member', 'You are a member of that workspace already.');
export const tooManyRequests = () => new AppError(429, 'rate_limited', 'Too many attempts; wait a minute and try again.');
