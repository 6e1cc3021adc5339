import { render } from 'preact';
import { ErrorBoundary } from 'preact-iso/lazy';
import { LocationProvider, Route, Router } from 'preact-iso/router';
import { api } from './api';
import { completeSignIn, signedIn, startSignIn } from './auth';
import { BASE_PATH, currentPage, pageHref } from './base';
import { Layout } from './components/layout';
import { AllowlistPage } from './pages/admin-allowlist';
import { AuditPage } from './pages/admin-audit';
import { ConnectorsPage } from './pages/admin-connectors';
import { CriticalAssetsPage } from './pages/admin-critical-assets';
import { FeedsPage } from './pages/admin-feeds';
import { KeysPage } from './pages/admin-keys';
import { WebhooksPage } from './pages/admin-webhooks/webhooks-page';
import { GraphPage } from './pages/graph';
import { IncidentPage } from './pages/incident';
import { IncidentsPage } from './pages/incidents';
import { NotFoundPage } from './pages/not-found';
import { SessionPage } from './pages/session/session-page';
import { SessionsPage } from './pages/sessions';
import { SignedOutPage, SignInProblem, SigningIn } from './pages/sign-in';
import type { Me } from './types';
import './styles.css';

const root = document.getElementById('app') ?? document.body;
const show = (node: preact.ComponentChild) => render(node, root);

function App({ me }: { me: Me }) {
  const at = (path: string) => `${BASE_PATH}${path}`;
  return (
    <LocationProvider {...(BASE_PATH ? { scope: BASE_PATH } : {})}>
      <Layout me={me}>
        <ErrorBoundary>
          <Router>
            <Route path={at('/sessions')} component={SessionsPage} />
            <Route path={at('/sessions/:id')} component={SessionPage} />
            <Route path={at('/incidents')} component={IncidentsPage} />
            <Route path={at('/incidents/:id')} component={IncidentPage} />
            <Route path={at('/graph')} component={GraphPage} />
            <Route path={at('/graph/:value')} component={GraphPage} />
            <Route path={at('/admin/keys')} component={KeysPage} me={me} />
            <Route path={at('/admin/audit')} component={AuditPage} me={me} />
            <Route path={at('/admin/allowlist')} component={AllowlistPage} me={me} />
            <Route path={at('/admin/feeds')} component={FeedsPage} me={me} />
            <Route path={at('/admin/connectors')} component={ConnectorsPage} me={me} />
            <Route path={at('/admin/webhooks')} component={WebhooksPage} me={me} />
            <Route path={at('/admin/critical-assets')} component={CriticalAssetsPage} me={me} />
            <Route default component={NotFoundPage} />
          </Router>
        </ErrorBoundary>
      </Layout>
    </LocationProvider>
  );
}

/** Pages that only lead somewhere else. */
const ENTRY_PAGES = ['/', '/console', '/auth/callback', '/signed-out'];

async function boot(): Promise<void> {
  const page = currentPage();
  if (page === '/signed-out') {
    show(<SignedOutPage />);
    return;
  }
  if (page === '/auth/callback') {
    show(<SigningIn />);
    try {
      const returnTo = await completeSignIn(new URL(location.href));
      const target = ENTRY_PAGES.includes(returnTo.split('?')[0] ?? '') ? '/sessions' : returnTo;
      history.replaceState(null, '', pageHref(target));
    } catch (error) {
      show(<SignInProblem error={error} />);
      return;
    }
  } else if (ENTRY_PAGES.includes(page)) {
    history.replaceState(null, '', pageHref('/sessions'));
  }
  if (!signedIn()) {
    show(<SigningIn />);
    await startSignIn();
  }
  try {
    const me = await api<Me>('GET', '/me');
    show(<App me={me} />);
  } catch (error) {
    show(<SignInProblem error={error} />);
  }
}

void boot();
