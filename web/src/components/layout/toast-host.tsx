import { lazy, Suspense, useState } from "react";
import { useSession } from "@/api/session";
import { useToast } from "@/hooks/use-toast";

const Toaster = lazy(() => import("@/components/ui/toaster").then((m) => ({ default: m.Toaster })));

/**
 * Mounts the toast area (Radix Toast, ~8 KB gzip) once it can matter: as soon as someone is
 * signed in, or the first time anything calls `toast()`. The sign-in page load stays lean; once
 * mounted it stays mounted, so F8 and announcements keep working.
 */
export function ToastHost() {
  const { toasts } = useToast();
  const { isAuthenticated } = useSession();
  const [mounted, setMounted] = useState(false);
  if (!mounted && (isAuthenticated || toasts.length > 0)) setMounted(true);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
