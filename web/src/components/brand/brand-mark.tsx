import { useId, type ComponentProps } from "react";

/**
 * Bridgekeeper's mark: a bridge arch held by its keystone. One colour (currentColor), legible at
 * 16 px; public/favicon.svg is the same drawing.
 */
export function BrandMark({ title, ...props }: ComponentProps<"svg"> & { title?: string }) {
  const maskId = `${useId()}-gap`;
  return (
    <svg
      viewBox="0 0 32 32"
      fill="currentColor"
      role={title ? "img" : undefined}
      aria-hidden={title ? undefined : true}
      focusable="false"
      {...props}
    >
      {title && <title>{title}</title>}
      <defs>
        <mask id={maskId}>
          <rect width="32" height="32" fill="#fff" />
          <path d={KEYSTONE} fill="#000" stroke="#000" strokeWidth="4" strokeLinejoin="round" />
        </mask>
      </defs>
      <path mask={`url(#${maskId})`} d="M2 29V16A14 14 0 0 1 30 16V29H23.5V21.5A7.5 7.5 0 0 0 8.5 21.5V29Z" />
      <path d={KEYSTONE} />
    </svg>
  );
}

const KEYSTONE = "M12.5 3.5H19.5L17.75 14.5H14.25Z";

/** The mark and the product name, as in the sidebar header and above the login form. */
export function BrandLockup({ className }: { className?: string }) {
  return (
    <span className={className ?? "flex items-center gap-2.5"}>
      <span className="flex size-8 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <BrandMark className="size-5" />
      </span>
      <span className="text-base font-semibold tracking-tight">Bridgekeeper</span>
    </span>
  );
}
