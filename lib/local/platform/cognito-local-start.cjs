'use strict';
/**
 * cognito-local (lib/local/platform/cognito.ts) with Amazon Cognito's rules for a verified email, then its own start
 * script. The platform trusts an invitation only to a verified address (docs/dashboard.md, "Invitations"),
 * and cognito-local 5.3 gets verification wrong in two ways that a test must not be spared:
 *
 * 1. ConfirmSignUp marks the user CONFIRMED but leaves `email_verified` unset. Cognito's confirmation with
 *    the code sent to the email also verifies that email (the pool auto-verifies `email`), so every
 *    signed-up user of cognito-local looked unverified.
 * 2. Its ID token says `email_verified: Boolean(<attribute>)`, and `Boolean("false")` is true: an email
 *    changed with UpdateUserAttributes (which it does mark "false", as Cognito does) came out verified.
 *    Cognito's ID token carries the attribute as a boolean, true only when it is "true".
 *
 *
 * It also lacks ResendConfirmationCode, which the platform calls when someone signs up with the address of
 * an account that was never confirmed (docs/dashboard.md, "Sign-up of a taken address"); it is added here
 * as Cognito answers it: a new code delivered to the email (replacing the old one), InvalidParameterException
 * "User is already confirmed." for a confirmed user, UserNotFoundException for an unknown one.
 *
 * Nor does it check passwords against the pool's policy at all (`password` signed up fine, where the stack's
 * pool refuses it). The pool's own PasswordPolicy (set from lib/domain/password-policy.ts by cognito.ts) is
 * enforced here on every call that sets a password, with Cognito's InvalidPasswordException and message.
 *
 * All of this is patched in the running process; nothing in node_modules changes.
 */
const { Targets } = require('cognito-local/lib/targets/targets');
const { JwtTokenGenerator } = require('cognito-local/lib/services/tokenGenerator');
const { CognitoError, InvalidParameterError, UserNotFoundError } = require('cognito-local/lib/errors');
const { selectAppropriateDeliveryMethod } = require('cognito-local/lib/services/messageDelivery/deliveryMethod');

const withVerifiedEmail = (attributes) => [...(attributes ?? []).filter((a) => a.Name !== 'email_verified'), { Name: 'email_verified', Value: 'true' }];

const confirmSignUp = Targets.ConfirmSignUp;
Targets.ConfirmSignUp = (services) => {
  const confirm = confirmSignUp(services);
  return async (ctx, req) => {
    const answer = await confirm(ctx, req);
    const pool = await services.cognito.getUserPoolForClientId(ctx, req.ClientId);
    const user = await pool.getUserByUsername(ctx, req.Username);
    if (user) await pool.saveUser(ctx, { ...user, Attributes: withVerifiedEmail(user.Attributes) });
    return answer;
  };
};

const generate = JwtTokenGenerator.prototype.generate;
JwtTokenGenerator.prototype.generate = function generateWithCognitosEmailVerified(ctx, user, ...rest) {
  // Only "true" stays: cognito-local then reads a missing attribute as false.
  const attributes = (user.Attributes ?? []).filter((a) => a.Name !== 'email_verified' || a.Value === 'true');
  return generate.call(this, ctx, { ...user, Attributes: attributes }, ...rest);
};

Targets.ResendConfirmationCode = ({ cognito, messages, otp, clock }) => async (ctx, req) => {
  const pool = await cognito.getUserPoolForClientId(ctx, req.ClientId);
  const user = await pool.getUserByUsername(ctx, req.Username);
  if (!user) throw new UserNotFoundError();
  if (user.UserStatus === 'CONFIRMED') throw new InvalidParameterError('User is already confirmed.');
  const delivery = selectAppropriateDeliveryMethod(pool.options.AutoVerifiedAttributes ?? [], user);
  if (!delivery) throw new InvalidParameterError('User has no attribute matching desired auto verified attributes');
  const code = otp();
  // Printed like every code cognito-local "sends", so lib/local/platform/cognito.ts relays it.
  await messages.deliver(ctx, 'ResendCode', req.ClientId, pool.options.Id, user, code, req.ClientMetadata, delivery);
  await pool.saveUser(ctx, { ...user, ConfirmationCode: code, UserLastModifiedDate: clock.get() });
  return { CodeDeliveryDetails: delivery };
};

// Cognito's symbol set (its user pool password requirements); a space counts unless leading or trailing.
const SYMBOL = /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\-]|(?<=\S) (?=\S)/;

/** The first rule of the pool's PasswordPolicy the password breaks, in Cognito's words; undefined when none. */
function policyProblem(policy, password) {
  if (!policy || typeof password !== 'string') return undefined;
  if (password.length < (policy.MinimumLength ?? 8)) return 'Password not long enough';
  if (policy.RequireUppercase && !/[A-Z]/.test(password)) return 'Password must have uppercase characters';
  if (policy.RequireLowercase && !/[a-z]/.test(password)) return 'Password must have lowercase characters';
  if (policy.RequireNumbers && !/[0-9]/.test(password)) return 'Password must have numeric characters';
  if (policy.RequireSymbols && !SYMBOL.test(password)) return 'Password must have symbol characters';
  return undefined;
}

/** Wraps a target so the password in `field` is checked against the pool found by `poolOf` first. */
function checkingPassword(name, field, poolOf) {
  const target = Targets[name];
  Targets[name] = (services) => {
    const run = target(services);
    return async (ctx, req) => {
      if (req[field] !== undefined) {
        const pool = await poolOf(services.cognito, ctx, req);
        const problem = policyProblem(pool?.options?.Policies?.PasswordPolicy, req[field]);
        if (problem) throw new CognitoError('InvalidPasswordException', `Password did not conform with policy: ${problem}`);
      }
      return run(ctx, req);
    };
  };
}
const byClient = (cognito, ctx, req) => cognito.getUserPoolForClientId(ctx, req.ClientId);
const byPool = (cognito, ctx, req) => cognito.getUserPool(ctx, req.UserPoolId);
checkingPassword('SignUp', 'Password', byClient);
checkingPassword('ConfirmForgotPassword', 'Password', byClient);
checkingPassword('AdminSetUserPassword', 'Password', byPool);
checkingPassword('AdminCreateUser', 'TemporaryPassword', byPool);

require('cognito-local/lib/bin/start.js');
