import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CognitoIdentityProviderServiceException,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  ForgotPasswordCommand,
  InitiateAuthCommand,
  ResendConfirmationCodeCommand,
  RevokeTokenCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { KidNotFoundInJwksError } from 'aws-jwt-verify/error';
import type { Jwks } from 'aws-jwt-verify/jwk';
import type { Config } from '../../config.js';
import {
  emailTaken,
  invalidCode,
  invalidCredentials,
  sessionRequired,
  tooManyRequests,
  userNotConfirmed,
  weakPassword,
} from '../../domain/dashboard.js';
import { AppError, BadRequestError } from '../../domain/errors.js';

/**
 * The identity port of dashboard sign-in (docs/dashboard.md) and its one adapter, Amazon Cognito through
 * its SDK. Locally the same client talks to cognito-local (COGNITO_ENDPOINT). The API never trusts a token
 * it did not verify: every ID token is checked (RS256 signature against the pool's JWKS, issuer, audience,
 * expiry, `token_use`) with aws-jwt-verify before its subject is believed.
 */
export interface IdentityUser {
  /** Cognito's `sub`: the user id everywhere in the platform. */
  readonly userId: string;
  readonly email: string;
  /**
   * Whether Cognito verified `email` (by a code sent to it). A user may change their own email attribute
   * (UpdateUserAttributes), and the new address stays unverified until they enter the code sent to it.
   */
  readonly emailVerified: boolean;
}

/** The ID token's `email_verified`: Cognito sends a boolean, some issuers the string "true"; anything else is unverified. */
export const emailVerifiedClaim = (value: unknown): boolean => value === true || value === 'true';

/** What a sign-up did: made a user, or found the address taken (which the answer must not tell). */
export type SignUpOutcome = { readonly created: true; readonly userId: string } | { readonly created: false };

export interface IdentityProvider {
  signUp(email: string, password: string): Promise<SignUpOutcome>;
  /**
   * Tells the owner of an existing account that someone signed up with its address, through the mail
   * Cognito sends: a new confirmation code when the account was never confirmed (what a person who lost
   * the first one needs), else a password reset code (what a person who forgot their account needs).
   */
  noticeExistingAccount(email: string): Promise<void>;
  confirmSignUp(email: string, code: string): Promise<void>;
  signIn(email: string, password: string): Promise<{ user: IdentityUser; refreshToken: string }>;
  /** Who a refresh token belongs to (a fresh ID token verified); a revoked or expired one is `session_required`. */
  refresh(refreshToken: string): Promise<IdentityUser>;
  revoke(refreshToken: string): Promise<void>;
  forgotPassword(email: string): Promise<void>;
  /**
   * A new sign-up confirmation code to an unconfirmed account (the last one stops working). An unknown or
   * already confirmed address is not an error: the answer must not tell who has an account.
   */
  resendConfirmationCode(email: string): Promise<void>;
  resetPassword(email: string, code: string, password: string): Promise<void>;
  /** A confirmed user with a permanent password (the admin CLI). */
  adminCreateUser(email: string, password: string): Promise<{ userId: string }>;
  /** The user with this email and whether they confirmed their sign-up (the admin CLI); undefined when there is none. */
  adminFindUser(email: string): Promise<{ userId: string; confirmed: boolean } | undefined>;
}

/** The identity provider is not configured (no COGNITO_USER_POOL_ID): the dashboard's sign-in is off. */
export const identityUnavailable = () =>
  new AppError(503, 'sign_in_unavailable', 'Dashboard sign-in is not configured on this platform.');

type CognitoConfig = Pick<Config, 'AWS_REGION' | 'COGNITO_USER_POOL_ID' | 'COGNITO_CLIENT_ID' | 'COGNITO_ENDPOINT' | 'COGNITO_ISSUER'>;

/** Maps Cognito's refusals to the dashboard's error codes; anything else stays a 500 (with its cause logged). */
function mapError(error: unknown, onNotAuthorized: () => AppError): never {
  if (!(error instanceof CognitoIdentityProviderServiceException)) throw error;
  switch (error.name) {
    case 'UsernameExistsException':
    case 'AliasExistsException':
      throw emailTaken();
    case 'InvalidPasswordException':
      throw weakPassword('The password is too weak: use at least 8 characters with upper and lower case letters, a digit and a symbol.');
    case 'CodeMismatchException':
    case 'ExpiredCodeException':
      throw invalidCode();
    case 'UserNotConfirmedException':
      throw userNotConfirmed();
    case 'NotAuthorizedException':
    case 'UserNotFoundException':
    case 'PasswordResetRequiredException':
      throw onNotAuthorized();
    case 'TooManyRequestsException':
    case 'LimitExceededException':
    case 'TooManyFailedAttemptsException':
      throw tooManyRequests();
    case 'InvalidParameterException':
      throw new BadRequestError('Cognito refused the request as invalid.');
    default:
      throw error;
  }
}

/** The JWKS of the pool, fetched by us (aws-jwt-verify fetches only https, and cognito-local serves http). */
async function fetchJwks(issuer: string): Promise<Jwks> {
  const res = await fetch(`${issuer}/.well-known/jwks.json`, { signal: AbortSignal.timeout(5_000) });
  if (!res.ok) throw new Error(`The user pool's JWKS answered ${res.status}`);
  return (await res.json()) as Jwks;
}

/** Cognito through its SDK; undefined-config calls refuse with 503 so the rest of the API works without it. */
export function createCognitoIdentity(config: CognitoConfig): IdentityProvider {
  const poolId = config.COGNITO_USER_POOL_ID;
  const clientId = config.COGNITO_CLIENT_ID;
  const client = new CognitoIdentityProviderClient({
    region: config.AWS_REGION,
    ...(config.COGNITO_ENDPOINT ? { endpoint: config.COGNITO_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  const issuer = config.COGNITO_ISSUER ?? `https://cognito-idp.${config.AWS_REGION}.amazonaws.com/${poolId}`;
  const verifier = JwtRsaVerifier.create({
    issuer,
    audience: clientId ?? null,
    customJwtCheck: ({ payload }) => {
      if (payload.token_use !== 'id') throw new Error('not an ID token');
    },
  });
  let jwksLoaded: Promise<void> | undefined;
  const loadJwks = () => {
    jwksLoaded ??= fetchJwks(issuer).then((jwks) => verifier.cacheJwks(jwks), (error: unknown) => {
      jwksLoaded = undefined;
      throw error;
    });
    return jwksLoaded;
  };
  /** Verifies an ID token; a key the cached JWKS lacks (the pool rotated) refetches it once. */
  const verifyIdToken = async (token: string): Promise<IdentityUser> => {
    await loadJwks();
    let payload;
    try {
      payload = await verifier.verify(token);
    } catch (error) {
      if (!(error instanceof KidNotFoundInJwksError)) throw error;
      jwksLoaded = undefined;
      await loadJwks();
      payload = await verifier.verify(token);
    }
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') throw new Error('The ID token lacks sub or email');
    return { userId: payload.sub, email: payload.email.toLowerCase(), emailVerified: emailVerifiedClaim(payload.email_verified) };
  };
  const ids = () => {
    if (!poolId || !clientId) throw identityUnavailable();
    return { poolId, clientId };
  };

  return {
    async signUp(email, password) {
      const { clientId: ClientId } = ids();
      const out = await client
        .send(new SignUpCommand({ ClientId, Username: email, Password: password, UserAttributes: [{ Name: 'email', Value: email }] }))
        .catch((e: unknown) => {
          if (e instanceof CognitoIdentityProviderServiceException && (e.name === 'UsernameExistsException' || e.name === 'AliasExistsException')) return undefined;
          return mapError(e, invalidCredentials);
        });
      return out ? { created: true, userId: out.UserSub! } : { created: false };
    },
    async noticeExistingAccount(email) {
      const { clientId: ClientId } = ids();
      const resent = await client.send(new ResendConfirmationCodeCommand({ ClientId, Username: email })).then(
        () => true,
        (e: unknown) => {
          // Confirmed already (InvalidParameterException) or in another state: the reset code below instead.
          if (e instanceof CognitoIdentityProviderServiceException) return false;
          throw e;
        },
      );
      if (!resent) await client.send(new ForgotPasswordCommand({ ClientId, Username: email }));
    },
    async confirmSignUp(email, code) {
      const { clientId: ClientId } = ids();
      await client.send(new ConfirmSignUpCommand({ ClientId, Username: email, ConfirmationCode: code })).catch((e: unknown) => mapError(e, invalidCode));
    },
    async signIn(email, password) {
      const { clientId: ClientId } = ids();
      const out = await client
        .send(new InitiateAuthCommand({ ClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }))
        .catch((e: unknown) => {
          // cognito-local answers a wrong password with InvalidPasswordException, Cognito with NotAuthorized: one answer for both.
          if (e instanceof CognitoIdentityProviderServiceException && e.name === 'InvalidPasswordException') throw invalidCredentials();
          return mapError(e, invalidCredentials);
        });
      const tokens = out.AuthenticationResult;
      // A challenge (a new password required, MFA) is not supported by the dashboard yet: refuse plainly.
      if (!tokens?.IdToken || !tokens.RefreshToken) throw new AppError(403, 'challenge_unsupported', 'This account needs a step the dashboard does not support yet (for example a new password).');
      return { user: await verifyIdToken(tokens.IdToken), refreshToken: tokens.RefreshToken };
    },
    async refresh(refreshToken) {
      const { clientId: ClientId } = ids();
      const out = await client
        .send(new InitiateAuthCommand({ ClientId, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: refreshToken } }))
        .catch((e: unknown) => mapError(e, sessionRequired));
      const idToken = out.AuthenticationResult?.IdToken;
      if (!idToken) throw sessionRequired();
      return verifyIdToken(idToken);
    },
    async revoke(refreshToken) {
      const { clientId: ClientId } = ids();
      // An already revoked or unknown token is what sign-out wants anyway.
      await client.send(new RevokeTokenCommand({ ClientId, Token: refreshToken })).catch((e: unknown) => {
        if (e instanceof CognitoIdentityProviderServiceException && e.name === 'NotAuthorizedException') return;
        throw e;
      });
    },
    async forgotPassword(email) {
      const { clientId: ClientId } = ids();
      // An unknown address answers like a known one: the endpoint must not tell who has an account.
      await client.send(new ForgotPasswordCommand({ ClientId, Username: email })).catch((e: unknown) => {
        if (e instanceof CognitoIdentityProviderServiceException && (e.name === 'UserNotFoundException' || e.name === 'NotAuthorizedException')) return;
        mapError(e, invalidCredentials);
      });
    },
    async resendConfirmationCode(email) {
      const { clientId: ClientId } = ids();
      // Cognito answers UserNotFoundException for an unknown address and InvalidParameterException for a
      // confirmed one (or, with "prevent user existence errors", a made-up delivery): all the same to the caller.
      await client.send(new ResendConfirmationCodeCommand({ ClientId, Username: email })).catch((e: unknown) => {
        if (e instanceof CognitoIdentityProviderServiceException && ['UserNotFoundException', 'InvalidParameterException', 'NotAuthorizedException'].includes(e.name)) return;
        mapError(e, invalidCredentials);
      });
    },
    async resetPassword(email, code, password) {
      const { clientId: ClientId } = ids();
      await client
        .send(new ConfirmForgotPasswordCommand({ ClientId, Username: email, ConfirmationCode: code, Password: password }))
        .catch((e: unknown) => mapError(e, invalidCode));
    },
    async adminCreateUser(email, password) {
      // The admin operations need only the pool (and IAM credentials on AWS), not the app client.
      if (!poolId) throw identityUnavailable();
      const UserPoolId = poolId;
      const out = await client
        .send(
          new AdminCreateUserCommand({
            UserPoolId,
            Username: email,
            // The CLI hands the password over itself: no invitation email.
            MessageAction: 'SUPPRESS',
            UserAttributes: [{ Name: 'email', Value: email }, { Name: 'email_verified', Value: 'true' }],
          }),
        )
        .catch((e: unknown) => mapError(e, invalidCredentials));
      await client
        .send(new AdminSetUserPasswordCommand({ UserPoolId, Username: email, Password: password, Permanent: true }))
        .catch((e: unknown) => mapError(e, invalidCredentials));
      const sub = out.User?.Attributes?.find((a) => a.Name === 'sub')?.Value;
      if (!sub) throw new Error('Cognito created the user without a sub');
      return { userId: sub };
    },
    async adminFindUser(email) {
      if (!poolId) throw identityUnavailable();
      const out = await client.send(new AdminGetUserCommand({ UserPoolId: poolId, Username: email })).catch((e: unknown) => {
        if (e instanceof CognitoIdentityProviderServiceException && e.name === 'UserNotFoundException') return undefined;
        return mapError(e, invalidCredentials);
      });
      if (!out) return undefined;
      const sub = out.UserAttributes?.find((a) => a.Name === 'sub')?.Value;
      if (!sub) throw new Error('Cognito answered a user without a sub');
      return { userId: sub, confirmed: out.UserStatus === 'CONFIRMED' };
    },
  };
}
