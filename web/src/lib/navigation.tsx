/**
 * A minimal client-side router on the History API.
 *
 * Why not wouter: it is not installed in this checkout (see the shell's issue note). This module
 * mirrors the part of wouter's API the console uses (`useLocation()` returning `[path, navigate]`,
 * `<Link href>`, `<Redirect to>`), so switching to wouter later is an import change.
 */
import { useLayoutEffect, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent, type Ref } from "react";

const NAVIGATE_EVENT = "bridgekeeper:navigate";

export interface NavigateOptions {
  /** Replace the current history entry instead of pushing a new one. */
  replace?: boolean;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener("popstate", onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener("popstate", onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

function currentPath(): string {
  return window.location.pathname;
}

/** Go to `to` (a same-origin path) without a page load. */
export function navigate(to: string, options: NavigateOptions = {}): void {
  const here = window.location.pathname + window.location.search + window.location.hash;
  if (to === here && !options.replace) return;
  if (options.replace) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
  if (!options.replace) window.scrollTo(0, 0);
}

/** The current path (without query or hash) and `navigate`, like wouter's `useLocation`. */
export function useLocation(): [path: string, navigate: typeof navigate] {
  const path = useSyncExternalStore(subscribe, currentPath);
  return [path, navigate];
}

/** `/users/` and `/users` are the same route. */
export function normalizePath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") || "/" : path;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; ref?: Ref<HTMLAnchorElement> };

/** An ordinary <a href> that navigates in-app on a plain left click (new tab etc. still work). */
export function Link({ href, onClick, target, ...props }: LinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (target && target !== "_self") return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} target={target} onClick={handleClick} {...props} />;
}

/** Replaces the current entry with `to` once rendered. */
export function Redirect({ to }: { to: string }) {
  useLayoutEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}
