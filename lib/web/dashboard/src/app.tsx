import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Shell } from './shell.js';
import { useSession } from './session.js';
import { Loading } from './ui.js';
import { AcceptInvitationPage, ForgotPasswordPage, SignInPage, SignUpPage } from './pages/auth.js';
import { AgentEditPage, AgentsPage } from './pages/agents.js';
import { ApiKeysPage } from './pages/keys.js';
import { CallPage, HistoryPage } from './pages/history.js';
import { ContactsPage } from './pages/contacts.js';
import { CreditsPage } from './pages/credits.js';
import { MembersPage } from './pages/members.js';
import { PhoneNumbersPage } from './pages/numbers.js';
import { PhoneNumberPage } from './pages/number.js';
import { ToolsPage } from './pages/tools.js';
import { PlaceCallPage } from './pages/place-call.js';
import { CampaignsPage } from './pages/campaigns.js';
import { CampaignPage } from './pages/campaign.js';
import { AgentTestRunPage, AgentTestsPage } from './pages/agent-tests.js';
import { WebhooksPage } from './pages/webhooks.js';
import { WebhookPage } from './pages/webhook.js';
import { DoNotCallPage } from './pages/dnc.js';
import { KnowledgeBasePage, KnowledgeBasesPage } from './pages/knowledge.js';
import { LiveCallPage, LivePage } from './pages/live.js';

/** Pages anyone may open; every other path needs a session and sends a visitor to sign in first. */
function PublicRoutes() {
  const location = useLocation();
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route path="/sign-up" element={<SignUpPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/accept-invitation" element={<AcceptInvitationPage />} />
      <Route path="*" element={<Navigate to="/sign-in" replace state={{ from: location.pathname + location.search + location.hash }} />} />
    </Routes>
  );
}

function SignedInRoutes() {
  return (
    <Routes>
      <Route element={<Shell />}>
        <Route index element={<Navigate to="/agents" replace />} />
        <Route path="agents" element={<AgentsPage />} />
        <Route path="agents/new" element={<AgentEditPage />} />
        <Route path="agents/:id" element={<AgentEditPage />} />
        <Route path="tools" element={<ToolsPage />} />
        <Route path="knowledge" element={<KnowledgeBasesPage />} />
        <Route path="knowledge/:id" element={<KnowledgeBasePage />} />
        <Route path="contacts" element={<ContactsPage />} />
        <Route path="phone-numbers" element={<PhoneNumbersPage />} />
        <Route path="phone-numbers/:id" element={<PhoneNumberPage />} />
        <Route path="calls/new" element={<PlaceCallPage />} />
        <Route path="campaigns" element={<CampaignsPage />} />
        <Route path="campaigns/:id" element={<CampaignPage />} />
        <Route path="agent-tests" element={<AgentTestsPage />} />
        <Route path="agent-tests/:id" element={<AgentTestRunPage />} />
        <Route path="live" element={<LivePage />} />
        <Route path="live/:id" element={<LiveCallPage />} />
        <Route path="history" element={<HistoryPage />} />
        <Route path="history/:id" element={<CallPage />} />
        <Route path="credits" element={<CreditsPage />} />
        <Route path="do-not-call" element={<DoNotCallPage />} />
        <Route path="webhooks" element={<WebhooksPage />} />
        <Route path="webhooks/:id" element={<WebhookPage />} />
        <Route path="settings/api-keys" element={<ApiKeysPage />} />
        <Route path="settings/members" element={<MembersPage />} />
        <Route path="*" element={<Navigate to="/agents" replace />} />
      </Route>
      {/* An invitation opened while signed in joins this user to the workspace. */}
      <Route path="/accept-invitation" element={<AcceptInvitationPage />} />
    </Routes>
  );
}

export function App() {
  const { status } = useSession();
  if (status === 'restoring') {
    return (
      <main className="centered">
        <Loading what="your session" />
      </main>
    );
  }
  return status === 'signed-in' ? <SignedInRoutes /> : <PublicRoutes />;
}
