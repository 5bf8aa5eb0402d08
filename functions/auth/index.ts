import { routeGroup } from '../../lib/http/route-group.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { handler as acceptInvitation } from './accept-invitation.js';
import { handler as confirmSignUp } from './confirm-sign-up.js';
import { handler as forgotPassword } from './forgot-password.js';
import { handler as refreshSession } from './refresh.js';
import { handler as resendConfirmationCode } from './resend-confirmation-code.js';
import { handler as resetPassword } from './reset-password.js';
import { handler as signIn } from './sign-in.js';
import { handler as signOut } from './sign-out.js';
import { handler as signUp } from './sign-up.js';

/** The dashboard's /auth routes in one function (lib/http/route-group.ts says why). */
export const handler = routeGroup([
  [AUTH_ROUTES.signUp, signUp],
  [AUTH_ROUTES.confirmSignUp, confirmSignUp],
  [AUTH_ROUTES.resendConfirmationCode, resendConfirmationCode],
  [AUTH_ROUTES.signIn, signIn],
  [AUTH_ROUTES.refreshSession, refreshSession],
  [AUTH_ROUTES.signOut, signOut],
  [AUTH_ROUTES.forgotPassword, forgotPassword],
  [AUTH_ROUTES.resetPassword, resetPassword],
  [AUTH_ROUTES.acceptInvitation, acceptInvitation],
]);
