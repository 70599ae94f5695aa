import { Globe, Plus, X } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { addOrigin, DEFAULT_CORS_ORIGINS } from "../lib/cors";
import { SectionCard } from "./section-card";

/**
 * CORS Configuration (spec sections 2 and 5, docs/decisions.md#cors-origins): the defaults are
 * labelled "Default" and cannot be removed; added origins live only in this page (never sent to the
 * server); an empty or duplicate origin is ignored. `serverOrigins` are the origins the server
 * itself allows.
 */
export function CorsCard({ serverOrigins }: { serverOrigins: string[] }) {
  const [added, setAdded] = useState<string[]>([]);
  const [draft, setDraft] = useState("");
  const [notice, setNotice] = useState("");
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const noticeId = `${inputId}-notice`;

  const onAdd = (event: FormEvent) => {
    event.preventDefault();
    const result = addOrigin(added, draft);
    if (result.kind === "added") {
      setAdded(result.origins);
      setDraft("");
      setNotice(`Added ${result.origin}.`);
    } else if (result.kind === "duplicate") {
      setNotice(`${result.origin} is already in the list.`);
    } else {
      setNotice("");
    }
    inputRef.current?.focus();
  };

  const onRemove = (origin: string) => {
    setAdded((list) => list.filter((o) => o !== origin));
    setNotice(`Removed ${origin}.`);
    inputRef.current?.focus();
  };

  return (
    <SectionCard id="cors" icon={Globe} title="CORS Configuration" description="Origins allowed to call the API from a browser.">
      <div className="grid gap-4">
        <form onSubmit={onAdd} noValidate className="grid gap-2">
          <Label htmlFor={inputId}>Origin</Label>
          <div className="flex gap-2">
            <Input
              ref={inputRef}
              id={inputId}
              type="url"
              inputMode="url"
              placeholder="https://console.example.com"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              aria-describedby={noticeId}
              className="font-mono"
            />
            <Button type="submit" variant="outline">
              <Plus aria-hidden="true" />
              Add
            </Button>
          </div>
          <p id={noticeId} role="status" className="text-xs text-muted-foreground">
            {notice}
          </p>
        </form>

        <ul aria-label="Allowed origins" className="divide-y divide-border rounded-md border border-border">
          {DEFAULT_CORS_ORIGINS.map((origin) => (
            <li key={origin} className="flex min-h-11 items-center justify-between gap-3 px-3 py-2">
              <span className="min-w-0 wrap-anywhere font-mono text-[0.8125rem]">{origin}</span>
              <Badge variant="secondary">Default</Badge>
            </li>
          ))}
          {added.map((origin) => (
            <li key={origin} className="flex min-h-11 items-center justify-between gap-3 px-3 py-1">
              <span className="min-w-0 wrap-anywhere font-mono text-[0.8125rem]">{origin}</span>
              <Button
                variant="ghost"
                size="icon"
                className="size-8 shrink-0"
                aria-label={`Remove ${origin}`}
                onClick={() => onRemove(origin)}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>

        <div className="space-y-1 text-xs text-muted-foreground">
          <p>Origins added here are kept in this page only; they are not sent to the server.</p>
          {serverOrigins.length > 0 && (
            <p>
              The server allows:{" "}
              {serverOrigins.map((origin, i) => (
                <span key={origin}>
                  {i > 0 && ", "}
                  <code className="wrap-anywhere font-mono text-foreground">{origin}</code>
                </span>
              ))}
            </p>
          )}
        </div>
      </div>
    </SectionCard>
  );
}
