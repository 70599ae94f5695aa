import type { ReactNode } from "react";
import { BrandMark } from "@/components/brand/brand-mark";
import { ThemeToggle } from "@/components/layout/theme-toggle";
import { cn } from "@/lib/utils";

/** The pages outside the console's shell (sign-in, OAuth consent): the mark and name centred above one card. */
export function BrandPage({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className="relative flex min-h-dvh flex-col items-center justify-center bg-sidebar px-4 py-12">
      <div className="absolute right-4 top-4">
        <ThemeToggle />
      </div>
      <main className={cn("w-full max-w-sm", className)}>
        <div className="mb-8 flex flex-col items-center gap-3 text-center">
          <span className="flex size-12 items-center justify-center rounded-xl bg-primary text-primary-foreground shadow-sm">
            <BrandMark className="size-7" />
          </span>
          <span className="text-xl font-semibold tracking-tight">Bridgekeeper</span>
        </div>
        {children}
      </main>
    </div>
  );
}
