import { Eye, EyeOff, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { SECRET_MASK } from "@contract/oauth";
import { Button } from "@/components/ui/button";

/** The boxed monospace value with its buttons at the right. */
export function ValueBox({ children, actions }: { children: ReactNode; actions: ReactNode }) {
  return (
    <div className="flex h-9 min-w-0 items-center gap-1 rounded-md border border-border bg-muted/40 pl-3 pr-1">
      <div className="min-w-0 flex-1">{children}</div>
      <div className="flex shrink-0 items-center">{actions}</div>
    </div>
  );
}

/** Said instead of a secret there is none of, or none to show. */
export function SecretNote({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <p className="flex min-h-9 items-center gap-2 text-xs text-muted-foreground">
      <Icon className="size-3.5 shrink-0" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}

interface SecretValueProps {
  /** What a reveal shows: the secret, or what the server keeps to show of it. */
  children: ReactNode;
  revealed: boolean;
  onToggleReveal: () => void;
  /** Named by the reveal button after "Show" or "Hide": "Client Secret of {name}". */
  label: string;
  /** The same, short, for the button's tooltip: "secret". */
  title: string;
  /** Buttons after the reveal button (a copy button). */
  actions?: ReactNode;
}

/** A secret masked as the spec's 32 bullets (section 9) until revealed, with its reveal button. */
export function SecretValue({ children, revealed, onToggleReveal, label, title, actions }: SecretValueProps) {
  const verb = revealed ? "Hide" : "Show";
  return (
    <ValueBox
      actions={
        <>
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            aria-label={`${verb} ${label}`}
            title={`${verb} ${title}`}
            onClick={onToggleReveal}
          >
            {revealed ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
          </Button>
          {actions}
        </>
      }
    >
      {revealed ? (
        children
      ) : (
        <span className="block overflow-hidden whitespace-nowrap font-mono text-xs tracking-tight text-muted-foreground">
          <span aria-hidden="true" data-secret-mask="">
            {SECRET_MASK}
          </span>
          <span className="sr-only">Hidden</span>
        </span>
      )}
    </ValueBox>
  );
}
