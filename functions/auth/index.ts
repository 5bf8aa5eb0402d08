import { routeGroup } from '../../lib/http/route-group.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { handler as acceptInvitation } from './accept-invitation.js';
import { handler as confirmSignUp } from './confirm-sign-up.js';
import { handler as forgotPassword } from './forgot-password.js';
import { handler as refreshSession } from './refresh.js';
import { handler as resetPassword } from './reset-password.js';
import { handler as signIn } from './sign-in.js';
import { handler as signOut } from './sign-out.js';
import { handler as signUp } from './sign-up.js';

/** The dashboard's /auth routes in one function (lib/http/route-group.ts says why). */
export const handler = routeGroup([
  [ROUTES.signUp, signUp],
  [ROUTES.confirmSignUp, confirmSignUp],
  [ROUTES.signIn, signIn],
  [ROUTES.refreshSession, refreshSession],
  [ROUTES.signOut, signOut],
  [ROUTES.forgotPassword, forgotPassword],
  [ROUTES.resetPassword, resetPassword],
  [ROUTES.acceptInvitation, acceptInvitation],
]);
