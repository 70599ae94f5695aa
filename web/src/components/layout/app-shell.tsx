import { Suspense, useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "wouter";
import { MobileNav } from "./mobile-nav";
import { PageSkeleton } from "./page-skeleton";
import { SidebarContent } from "./sidebar-content";

/**
 * The signed-in frame: an 18rem sidebar column from md up (its content stays in view), the mobile top bar and drawer below it,
 * a "Skip to content" link, and the page in a centred column (max 1280 px, 24–32 px gutters).
 */
export function AppShell({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const shownLocation = useRef(location);

  // A route change in a single-page app is silent for a screen reader: move focus to the new
  // content (not on first load, where the browser's own focus order applies).
  useEffect(() => {
    if (shownLocation.current === location) return;
    shownLocation.current = location;
    mainRef.current?.focus({ preventScroll: true });
  }, [location]);

  return (
    <div className="min-h-dvh bg-background md:flex">
      <a
        href="#main-content"
        className="sr-only z-[60] rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:outline-none focus:ring-2 focus:ring-ring focus:ring-offset-2"
      >
        Skip to content
      </a>

      {/* The column runs the page's whole height (its border and background too, also in a
          full-page capture); its content sticks to the window while the page scrolls. */}
      <aside aria-label="Sidebar" className="hidden w-72 shrink-0 border-r border-border bg-sidebar md:block">
        <div className="sticky top-0 h-dvh">
          <SidebarContent />
        </div>
      </aside>

      <MobileNav />

      <div className="min-w-0 flex-1">
        <main
          id="main-content"
          ref={mainRef}
          tabIndex={-1}
          className="mx-auto w-full max-w-[1280px] px-6 py-6 focus:outline-none sm:px-8 sm:py-8"
        >
          <Suspense fallback={<PageSkeleton />}>{children}</Suspense>
        </main>
      </div>
    </div>
  );
}
