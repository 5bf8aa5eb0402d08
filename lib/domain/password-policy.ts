/**
 * The dashboard's password rule, declared once: the stack's Cognito user pool (lib/infra/constructs/dashboard.ts),
 * the local pool in cognito-local (lib/local/platform/cognito.ts, enforced by cognito-local-start.cjs) and the
 * sign-up form's hint are all built from it, so a password the local platform takes is one AWS takes too.
 */
export const PASSWORD_POLICY = {
  minLength: 8,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: true,
} as const;

/** The rule in words, shown before a person submits (and in the refusal when they break it). */
export const PASSWORD_RULE = `At least ${PASSWORD_POLICY.minLength} characters, with upper and lower case letters, a digit and a symbol.`;

/** The policy in the shape of Cognito's API (CreateUserPool / UpdateUserPool `Policies.PasswordPolicy`). */
export const COGNITO_PASSWORD_POLICY = {
  MinimumLength: PASSWORD_POLICY.minLength,
  RequireLowercase: PASSWORD_POLICY.requireLowercase,
  RequireUppercase: PASSWORD_POLICY.requireUppercase,
  RequireNumbers: PASSWORD_POLICY.requireDigits,
  RequireSymbols: PASSWORD_POLICY.requireSymbols,
} as const;

/** Cognito's symbol set (its password requirements); a space counts unless it leads or trails. */
const SYMBOL = /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+-]|(?<=\S) (?=\S)/;

/**
 * Whether a password meets {@link PASSWORD_POLICY}, checked where a refusal half-way would leave something
 * behind (the admin CLI sets a password after creating the Cognito user). The pools check it themselves;
 * lib/local/platform/cognito-local-start.cjs is the same test for cognito-local.
 */
export function meetsPasswordPolicy(password: string): boolean {
  return (
    password.length >= PASSWORD_POLICY.minLength &&
    (!PASSWORD_POLICY.requireUppercase || /[A-Z]/.test(password)) &&
    (!PASSWORD_POLICY.requireLowercase || /[a-z]/.test(password)) &&
    (!PASSWORD_POLICY.requireDigits || /[0-9]/.test(password)) &&
    (!PASSWORD_POLICY.requireSymbols || SYMBOL.test(password))
  );
}
