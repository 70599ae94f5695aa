import { Menu, X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { useEffect, useRef, useState } from "react";
import { BrandLockup } from "@/components/brand/brand-mark";
import { Button } from "@/components/ui/button";
import { SidebarContent } from "./sidebar-content";

const DRAWER_ID = "mobile-navigation";
const DESKTOP_QUERY = "(min-width: 48rem)"; // Tailwind's md, where the fixed sidebar takes over

/**
 * Below md the sidebar hides behind a toggle in a top bar and opens as a drawer over a dimmed
 * overlay (Radix Dialog: focus trap, Escape and a click on the overlay close it). Choosing a link
 * closes it and leaves focus to the page, not the toggle.
 */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  const navigatedRef = useRef(false);

  useEffect(() => {
    const query = window.matchMedia(DESKTOP_QUERY);
    const closeOnDesktop = () => {
      if (query.matches) setOpen(false);
    };
    query.addEventListener("change", closeOnDesktop);
    return () => query.removeEventListener("change", closeOnDesktop);
  }, []);

  const closeAfterNavigation = () => {
    navigatedRef.current = true;
    setOpen(false);
  };

  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-border bg-background/95 px-4 backdrop-blur md:hidden">
        <DialogPrimitive.Trigger asChild aria-controls={DRAWER_ID}>
          <Button variant="ghost" size="icon" aria-label="Open navigation" className="-ml-2">
            <Menu aria-hidden="true" />
          </Button>
        </DialogPrimitive.Trigger>
        <BrandLockup />
      </header>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay
          data-testid="mobile-nav-overlay"
          className="fixed inset-0 z-40 bg-overlay data-[state=open]:animate-fade-in data-[state=closed]:animate-fade-out md:hidden"
        />
        <DialogPrimitive.Content
          id={DRAWER_ID}
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            // After a link was chosen, the shell moves focus to the new page's content instead.
            if (navigatedRef.current) event.preventDefault();
            navigatedRef.current = false;
          }}
          className="fixed inset-y-0 left-0 z-50 w-72 max-w-[calc(100vw-3rem)] border-r border-border bg-sidebar shadow-xl focus:outline-none data-[state=open]:animate-drawer-in data-[state=closed]:animate-drawer-out md:hidden"
        >
          <DialogPrimitive.Title className="sr-only">Navigation</DialogPrimitive.Title>
          <SidebarContent onNavigate={closeAfterNavigation} />
          <DialogPrimitive.Close asChild>
            <Button variant="ghost" size="icon" aria-label="Close navigation" className="absolute right-2 top-3.5">
              <X aria-hidden="true" />
            </Button>
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
