import { startSignIn } from '../auth';
import { ErrorNote } from '../components/common';

export function SigningIn() {
  return (
    <main id="main" class="centered">
      <h1>Security Investigation Service</h1>
      <p role="status">Signing you in…</p>
    </main>
  );
}

export function SignedOutPage() {
  document.title = 'Signed out · Security Investigation Service';
  return (
    <main id="main" class="centered">
      <h1>You are signed out</h1>
      <p>Your session in the console has ended.</p>
      <button type="button" onClick={() => void startSignIn('/sessions')}>
        Sign in again
      </button>
    </main>
  );
}

export function SignInProblem({ error }: { error: unknown }) {
  document.title = 'Sign-in problem · Security Investigation Service';
  return (
    <main id="main" class="centered">
      <h1>Sign-in did not complete</h1>
      <ErrorNote error={error} />
      <button type="button" onClick={() => void startSignIn('/sessions')}>
        Sign in again
      </button>
    </main>
  );
}
