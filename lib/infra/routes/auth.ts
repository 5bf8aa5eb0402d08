import * as z from 'zod';
import { AcceptInvitationBody, ConfirmSignUpBody, ForgotPasswordBody, RefreshBody, ResetPasswordBody, Session, SignInBody, SignUpBody, SignUpResult } from '../../domain/dashboard.js';
import { route, type RouteSpec } from '../route-spec.js';

/** The auth routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const AUTH_ROUTES = {
  // Dashboard sign-in (docs/dashboard.md). Public: they take a password, a code or the refresh cookie, never a key;
  // `csrf`: only the dashboard's own page may call them (403 csrf_refused, 415 for a body that is not JSON).
  signUp: route({ method: 'POST', path: '/auth/sign-up', entry: 'functions/auth/index.ts', summary: 'Dashboard: create an account and its workspace; a confirmation code is emailed (the same answer for a taken address)', tag: 'Dashboard', auth: false, csrf: true, ipLimit: 'account', body: SignUpBody, errors: [429], status: 201, response: SignUpResult }),
  confirmSignUp: route({ method: 'POST', path: '/auth/confirm-sign-up', entry: 'functions/auth/index.ts', summary: 'Dashboard: confirm the email address with its code', tag: 'Dashboard', auth: false, csrf: true, ipLimit: 'account', body: ConfirmSignUpBody, errors: [429], status: 204 }),
  signIn: route({ method: 'POST', path: '/auth/sign-in', entry: 'functions/auth/index.ts', summary: 'Dashboard: sign in; answers a session key and sets the HttpOnly refresh cookie', tag: 'Dashboard', auth: false, csrf: true, ipLimit: 'account', body: SignInBody, errors: [429], status: 200, response: Session }),
  refreshSession: route({ method: 'POST', path: '/auth/refresh', entry: 'functions/auth/index.ts', summary: 'Dashboard: a fresh session key from the refresh cookie; workspaceId switches workspace (x-requested-with: dashboard)', tag: 'Dashboard', auth: false, csrf: true, ipLimit: 'refresh', body: RefreshBody.optional(), status: 200, response: Session }),
  signOut: route({ method: 'POST', path: '/auth/sign-out', entry: 'functions/auth/index.ts', summary: "Dashboard: sign out (the user's session keys and refresh token revoked, the cookie cleared)", tag: 'Dashboard', auth: false, csrf: true, bodyKind: 'none', status: 204 }),
  forgotPassword: route({ method: 'POST', path: '/auth/forgot-password', entry: 'functions/auth/index.ts', summary: 'Dashboard: email a password reset code (the same answer for an unknown address)', tag: 'Dashboard', auth: false, csrf: true, ipLimit: 'account', body: ForgotPasswordBody, errors: [429], status: 202, response: z.object({ message: z.string() }) }),
  resetPassword: route({ method: 'POST', path: '/auth/reset-password', entry: 'functions/auth/index.ts', summary: 'Dashboard: set a new password with the emailed code', tag: 'Dashboard', auth: false, csrf: true, ipLimit: 'account', body: ResetPasswordBody, errors: [429], status: 204 }),
  acceptInvitation: route({ method: 'POST', path: '/auth/accept-invitation', entry: 'functions/auth/index.ts', summary: "Dashboard: join a workspace with an invitation's token (refresh cookie; x-requested-with: dashboard)", tag: 'Dashboard', auth: false, csrf: true, body: AcceptInvitationBody, errors: [404, 409, 410], status: 200, response: Session }),
} as const satisfies Record<string, RouteSpec>;
