import { Check, Copy } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { TOASTS } from "@contract/messages";
import { Button } from "@/components/ui/button";
import { toast } from "@/hooks/use-toast";
import { cn } from "@/lib/utils";

interface CopyButtonProps {
  value: string;
  /** What is copied, as the spec's toast names it: "Client ID", "Client Secret", "Connection ID"… */
  what: string;
  /** The accessible name, e.g. "Copy Client ID of Claude Desktop". */
  label: string;
}

/** Copies to the clipboard and confirms with the spec's "Copied" toast (section 8); a tick for 2 s. */
export function CopyButton({ value, what, label, className }: CopyButtonProps & { className?: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      toast({ variant: "destructive", title: TOASTS.errorTitle, description: TOASTS.oauthClients.copyFailed(what) });
      return;
    }
    toast({ title: TOASTS.oauthClients.copiedTitle, description: TOASTS.oauthClients.copied(what) });
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), 2000);
  };

  return (
    <Button
      variant="ghost"
      size="icon"
      className={cn("size-7", className)}
      aria-label={label}
      title={`Copy ${what}`}
      onClick={() => void copy()}
    >
      {copied ? <Check aria-hidden="true" className="text-success" /> : <Copy aria-hidden="true" />}
    </Button>
  );
}
