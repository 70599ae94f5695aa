/**
 * Light/dark theme. The first paint is set by public/theme-init.js (same storage key and rule);
 * this module keeps it in sync afterwards: an explicit choice is stored in localStorage, without
 * one the system setting is followed, live.
 */
export type Theme = "light" | "dark";

const STORAGE_KEY = "bridgekeeper-theme";
const systemDark = () => window.matchMedia("(prefers-color-scheme: dark)");
const listeners = new Set<() => void>();

function readStored(): Theme | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null; // storage can be blocked (privacy mode); fall back to the system setting
  }
}

export function getTheme(): Theme {
  return readStored() ?? (systemDark().matches ? "dark" : "light");
}

function apply(): void {
  document.documentElement.classList.toggle("dark", getTheme() === "dark");
  listeners.forEach((listener) => listener());
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // Not persisted; still applied for this page.
  }
  document.documentElement.classList.toggle("dark", theme === "dark");
  listeners.forEach((listener) => listener());
}

export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called once at start-up: re-apply (in case theme-init.js was blocked) and follow the system. */
export function initTheme(): void {
  apply();
  systemDark().addEventListener("change", () => {
    if (readStored() === null) apply();
  });
  window.addEventListener("storage", (event) => {
    if (event.key === STORAGE_KEY) apply();
  });
}
