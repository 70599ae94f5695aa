import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from "react";
import { Redirect, Route, Router, Switch, type AroundNavHandler } from "wouter";
import { MY_ACCOUNTS_PATH } from "@contract/accounts";
import { NAV_ITEMS, type NavPath } from "@contract/navigation";
import { useSession } from "@/api/session";
import { LoadingState } from "@/components/ui/spinner";
import { useDocumentTitle } from "@/hooks/use-document-title";

// Every screen is its own chunk: the login page load carries none of the console's pages.
const LoginPage = lazy(() => import("@/pages/Login"));
const AppShell = lazy(() => import("@/components/layout/app-shell").then((m) => ({ default: m.AppShell })));
const NotFoundPage = lazy(() => import("@/pages/NotFound"));
const OAuthConsentPage = lazy(() => import("@/pages/OAuthConsent"));

const PAGES: Record<NavPath, LazyExoticComponent<ComponentType>> = {
  "/": lazy(() => import("@/pages/Dashboard")),
  "/chat": lazy(() => import("@/pages/Chat")),
  "/ai-providers": lazy(() => import("@/pages/AiProviders")),
  "/users": lazy(() => import("@/pages/Users")),
  "/oauth-clients": lazy(() => import("@/pages/OAuthClients")),
  "/api-endpoints": lazy(() => import("@/pages/ApiEndpoints")),
  "/sse-connections": lazy(() => import("@/pages/SseConnections")),
  "/logs": lazy(() => import("@/pages/Logs")),
  "/configuration": lazy(() => import("@/pages/Configuration")),
};

/** My accounts (issue 27): no sidebar entry of its own (the nine are the spec's); the user block at the sidebar's foot opens it. */
const AccountPage = lazy(() => import("@/pages/Account"));

/**
 * wouter pushes a history entry on every link click; a click on the link to the page already
 * shown should not add one (Back would then seem to do nothing), and a new page starts at the top.
 */
const aroundNav: AroundNavHandler = (navigate, to, options) => {
  const here = window.location.pathname + window.location.search + window.location.hash;
  if (to === here && !options?.replace) return;
  navigate(to, options);
  if (!options?.replace) window.scrollTo(0, 0);
};

function FullPageLoading() {
  return <LoadingState className="min-h-dvh" />;
}

/**
 * Access (spec section 2 with docs/decisions.md#sign-in-and-deep-links): while the session
 * resolves, a spinner; signed out, every path shows the login page (the address is kept, so a deep
 * link survives sign-in); signed in, the shell with the sidebar on every page, and /login goes to
 * the dashboard.
 */
export function AppRouter() {
  return (
    <Router aroundNav={aroundNav}>
      <AccessGate />
    </Router>
  );
}

function AccessGate() {
  const session = useSession();

  if (session.isLoading) return <FullPageLoading />;

  if (!session.isAuthenticated) {
    return (
      <Suspense fallback={<FullPageLoading />}>
        <LoginPage />
      </Suspense>
    );
  }

  return (
    <Switch>
      <Route path="/login">
        <Redirect to="/" replace />
      </Route>
      {/* OAuth consent: its own full page, outside the console's shell (docs/decisions.md#oauth-authorization-server). */}
      <Route path="/oauth-consent/:id">
        {(params) => (
          <Suspense fallback={<FullPageLoading />}>
            <OAuthConsentPage id={params.id} />
          </Suspense>
        )}
      </Route>
      <Route>
        <Suspense fallback={<FullPageLoading />}>
          <AppShell>
            <Switch>
              {NAV_ITEMS.map((item) => (
                <Route key={item.path} path={item.path}>
                  <Page title={item.label} component={PAGES[item.path]} />
                </Route>
              ))}
              <Route path={MY_ACCOUNTS_PATH}>
                <Page title="My accounts" component={AccountPage} />
              </Route>
              <Route>
                <Page title="Page not found" component={NotFoundPage} />
              </Route>
            </Switch>
          </AppShell>
        </Suspense>
      </Route>
    </Switch>
  );
}

function Page({ title, component: Component }: { title: string; component: ComponentType }) {
  useDocumentTitle(title);
  return <Component />;
}
