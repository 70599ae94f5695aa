import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from "react";
import { NAV_ITEMS, type NavPath } from "@contract/navigation";
import { useSession } from "@/api/session";
import { LoadingState } from "@/components/ui/spinner";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { normalizePath, Redirect, useLocation } from "@/lib/navigation";

// Every screen is its own chunk: the login page load carries none of the console's pages.
const LoginPage = lazy(() => import("@/pages/Login"));
const AppShell = lazy(() => import("@/components/layout/app-shell").then((m) => ({ default: m.AppShell })));
const NotFoundPage = lazy(() => import("@/pages/NotFound"));

const ROUTES: Record<NavPath, LazyExoticComponent<ComponentType>> = {
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

function isNavPath(path: string): path is NavPath {
  return Object.hasOwn(ROUTES, path);
}

function FullPageLoading() {
  return <LoadingState className="min-h-dvh" />;
}

/**
 * Access (spec section 2 with DECISIONS D1): while the session resolves, a spinner; signed out,
 * every path shows the login page (the address is kept, so a deep link survives sign-in);
 * signed in, the shell with the sidebar on every page, and /login goes to the dashboard.
 */
export function AppRouter() {
  const session = useSession();
  const [location] = useLocation();
  const path = normalizePath(location);

  if (session.isLoading) return <FullPageLoading />;

  if (!session.isAuthenticated) {
    return (
      <Suspense fallback={<FullPageLoading />}>
        <LoginPage />
      </Suspense>
    );
  }

  if (path === "/login") return <Redirect to="/" />;

  return (
    <Suspense fallback={<FullPageLoading />}>
      <AppShell>
        <RouteView path={path} />
      </AppShell>
    </Suspense>
  );
}

function RouteView({ path }: { path: string }) {
  const known = isNavPath(path);
  useDocumentTitle(known ? NAV_ITEMS.find((item) => item.path === path)?.label : "Page not found");
  const Page = known ? ROUTES[path] : NotFoundPage;
  return <Page />;
}
