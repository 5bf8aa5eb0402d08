import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ApiError, authCall, type Session } from '../api.js';
import { useSession } from '../session.js';
import { Button, ErrorNotice, Notice, TextField } from '../ui.js';
import { PASSWORD_POLICY, PASSWORD_RULE } from '../../../../domain/password-policy.js';

/** The signed-out pages: a centred card each. The password never leaves the form's memory. */

function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">Voice agents</p>
        <h1>{title}</h1>
        {children}
        {footer ? <div className="auth-footer">{footer}</div> : null}
      </div>
    </main>
  );
}

const submit = (run: () => void) => (e: FormEvent) => {
  e.preventDefault();
  run();
};

/**
 * "Resend code" under a code form: asks for a new code (the last one stops working) and says it is on its
 * way, with the same words whether or not the address has an account (the server does not tell either).
 */
function ResendCode({ send, email }: { send: () => Promise<unknown>; email: string }) {
  const resend = useMutation({ mutationFn: send });
  return (
    <div className="resend">
      {resend.isSuccess && !resend.isPending ? <Notice kind="success">If {email} is waiting for a code, a new one is on its way. Only the newest code works.</Notice> : null}
      <ErrorNotice error={resend.error} />
      <p className="row">
        <span>No code yet? Check your spam folder, or</span>
        <Button variant="ghost" busy={resend.isPending} onClick={() => resend.mutate()}>
          Resend code
        </Button>
      </p>
    </div>
  );
}

/** The rule both pools enforce (lib/domain/password-policy.ts), said before submit. */
const PASSWORD_HINT = PASSWORD_RULE;

export function SignInPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const from = (location.state as { from?: string } | null)?.from;
  const run = useMutation({
    mutationFn: () => signIn(email, password),
    onSuccess: () => navigate(from && from !== '/sign-in' ? from : '/agents', { replace: true }),
  });
  const notice = (location.state as { notice?: string } | null)?.notice;
  return (
    <AuthCard
      title="Sign in"
      footer={
        <>
          <Link to="/forgot-password">Forgot your password?</Link>
          <span>
            New here? <Link to="/sign-up">Create an account</Link>
          </span>
        </>
      }
    >
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <form onSubmit={submit(() => run.mutate())} noValidate={false}>
        <TextField label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <TextField label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <ErrorNotice error={run.error} />
        <Button variant="primary" type="submit" busy={run.isPending} className="btn-block">
          Sign in
        </Button>
      </form>
    </AuthCard>
  );
}

/**
 * Sign-up, then the emailed code: two steps of one page, so the address is typed once. An address that has
 * an account gets the same answer (the server does not tell), and its owner an email instead: the page says so.
 */
export function SignUpPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState<'details' | 'code'>('details');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [workspaceName, setWorkspaceName] = useState('');
  const [code, setCode] = useState('');
  const signUp = useMutation({
    mutationFn: () => authCall<{ confirmationRequired: boolean }>('sign-up', { email, password, workspaceName }),
    onSuccess: () => setStep('code'),
  });
  const confirm = useMutation({
    mutationFn: () => authCall('confirm-sign-up', { email, code: code.trim() }),
    onSuccess: () => navigate('/sign-in', { state: { notice: 'Your account is confirmed. Sign in to continue.' } }),
  });
  // The pool's refusal of a weak password names no field: the alert below says it, and the field is marked.
  const weak = signUp.error instanceof ApiError && signUp.error.code === 'weak_password';
  const fieldError = (field: string) => (field === 'password' && weak ? 'Too weak for the rule above.' : signUp.error instanceof ApiError ? signUp.error.forField(field) : undefined);
  if (step === 'code') {
    return (
      <AuthCard title="Check your email" footer={<Link to="/sign-in">Back to sign in</Link>}>
        <p>
          We sent a confirmation code to <strong>{email}</strong>. Enter it to finish creating your account.
        </p>
        <p>
          If this address already has an account, we emailed it a password reset code instead: <Link to="/sign-in">sign in</Link>,
          or <Link to="/forgot-password">reset your password</Link>.
        </p>
        <form onSubmit={submit(() => confirm.mutate())}>
          <TextField label="Confirmation code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
          <ErrorNotice error={confirm.error} />
          <Button variant="primary" type="submit" busy={confirm.isPending} className="btn-block">
            Confirm account
          </Button>
        </form>
        <ResendCode email={email} send={() => authCall('resend-confirmation-code', { email })} />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Create your account"
      footer={
        <span>
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </span>
      }
    >
      <form onSubmit={submit(() => signUp.mutate())}>
        <TextField label="Email" type="email" autoComplete="email" required value={email} error={fieldError('email')} onChange={(e) => setEmail(e.target.value)} />
        <TextField label="Password" type="password" autoComplete="new-password" required minLength={PASSWORD_POLICY.minLength} hint={PASSWORD_HINT} error={fieldError('password')} value={password} onChange={(e) => setPassword(e.target.value)} />
        <TextField label="Workspace name" required maxLength={200} hint="Your team or company; you can add more workspaces later." error={fieldError('workspaceName')} value={workspaceName} onChange={(e) => setWorkspaceName(e.target.value)} />
        <ErrorNotice error={signUp.error} />
        <Button variant="primary" type="submit" busy={signUp.isPending} className="btn-block">
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}

export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState<'email' | 'reset'>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const request = useMutation({ mutationFn: () => authCall('forgot-password', { email }), onSuccess: () => setStep('reset') });
  const reset = useMutation({
    mutationFn: () => authCall('reset-password', { email, code: code.trim(), password }),
    onSuccess: () => navigate('/sign-in', { state: { notice: 'Your password is changed. Sign in with the new one.' } }),
  });
  if (step === 'reset') {
    return (
      <AuthCard title="Choose a new password" footer={<Link to="/sign-in">Back to sign in</Link>}>
        <p>If an account exists for {email}, we sent it a reset code.</p>
        <form onSubmit={submit(() => reset.mutate())}>
          <TextField label="Reset code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
          <TextField label="New password" type="password" autoComplete="new-password" required minLength={PASSWORD_POLICY.minLength} hint={PASSWORD_HINT} value={password} onChange={(e) => setPassword(e.target.value)} />
          <ErrorNotice error={reset.error} />
          <Button variant="primary" type="submit" busy={reset.isPending} className="btn-block">
            Change password
          </Button>
        </form>
        <ResendCode email={email} send={() => authCall('forgot-password', { email })} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Reset your password" footer={<Link to="/sign-in">Back to sign in</Link>}>
      <p>Enter your account’s email address and we will send you a code to choose a new password.</p>
      <form onSubmit={submit(() => request.mutate())}>
        <TextField label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <ErrorNotice error={request.error} />
        <Button variant="primary" type="submit" busy={request.isPending} className="btn-block">
          Send reset code
        </Button>
      </form>
    </AuthCard>
  );
}

/**
 * /accept-invitation#token=…: the token rides in the fragment, which browsers never send to a server (no
 * access log or Referer holds it). Joins the signed-in user, or asks a visitor to sign in (or up) first and
 * comes back here afterwards.
 */
export function AcceptInvitationPage() {
  const location = useLocation();
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  const { status, session, adopt, signOut } = useSession();
  const navigate = useNavigate();
  const accept = useMutation({
    mutationFn: () => authCall<Session>('accept-invitation', { token }),
    onSuccess: (session) => {
      adopt(session);
      navigate('/agents', { replace: true });
    },
  });
  const back = location.pathname + location.search + location.hash;
  return (
    <AuthCard title="Join a workspace">
      {!token ? (
        <Notice kind="warning">This invitation link has no token. Open the link from the invitation again.</Notice>
      ) : status === 'signed-in' ? (
        <>
          <p>
            You have been invited to a workspace. Accept to join it as <strong>{session?.user.email}</strong>.
          </p>
          <ErrorNotice error={accept.error} />
          <Button variant="primary" busy={accept.isPending} onClick={() => accept.mutate()} className="btn-block">
            Accept invitation
          </Button>
          <Button variant="ghost" onClick={() => void signOut()} className="btn-block">
            Use another account
          </Button>
        </>
      ) : (
        <>
          <p>Sign in (or create an account with the invited email address) to accept this invitation.</p>
          <div className="row">
            <Button variant="primary" onClick={() => navigate('/sign-in', { state: { from: back } })}>
              Sign in
            </Button>
            <Button onClick={() => navigate('/sign-up')}>Create an account</Button>
          </div>
        </>
      )}
    </AuthCard>
  );
}
