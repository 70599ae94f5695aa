import { Check, Copy } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { TOASTS } from "@contract/messages";
import { Button } from "@/components/ui/button";
import { toast } from "@/hooks/use-toast";

type Copyable = Parameters<typeof TOASTS.oauthClients.copied>[0];

interface CopyButtonProps {
  value: string;
  /** What is copied, as the spec's toast names it: "Client ID" or "Client Secret". */
  what: Copyable;
  /** The accessible name, e.g. "Copy Client ID of Claude Desktop". */
  label: string;
}

/** Copies to the clipboard and confirms with the spec's "Copied" toast (section 8); a tick for 2 s. */
export function CopyButton({ value, what, label }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      toast({ variant: "destructive", title: "Error", description: TOASTS.oauthClients.copyFailed(what) });
      return;
    }
    toast({ title: TOASTS.oauthClients.copiedTitle, description: TOASTS.oauthClients.copied(what) });
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), 2000);
  };

  return (
    <Button variant="ghost" size="icon" className="size-7" aria-label={label} title={`Copy ${what}`} onClick={() => void copy()}>
      {copied ? <Check aria-hidden="true" className="text-success" /> : <Copy aria-hidden="true" />}
    </Button>
  );
}
