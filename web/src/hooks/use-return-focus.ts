import { useRef } from "react";

/**
 * Focus for a dialog without a Radix trigger (opened from a page's own state): `remember()` as it
 * opens keeps the control that had focus; `onCloseAutoFocus` gives focus back to it, or, when that
 * control is gone, to `fallback()`.
 */
export function useReturnFocus(fallback: () => HTMLElement | null | undefined) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    remember: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault();
      (opener.current?.isConnected ? opener.current : fallback())?.focus();
    },
  };
}
