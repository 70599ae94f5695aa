import { useCallback, useState } from "react";

/** Which secrets of a list are shown (spec section 4: masked by default, revealed one by one). */
export function useRevealed() {
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((id: string) => {
    setRevealed((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const reveal = useCallback((id: string) => setRevealed((current) => new Set(current).add(id)), []);
  return { revealed, toggle, reveal };
}
