import { AlertTriangle, Sparkles } from "lucide-react";
import { useState } from "react";
import { Link } from "wouter";
import { AI_PROVIDER_LABELS } from "@contract/ai-providers";
import { CHAT_LIMITS, CHAT_TEXT, DATA_SOURCES, type ChatProvider, type DataSource } from "@contract/chat";
import { useGenerateSystemMessage } from "@/api/chat";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/hooks/use-toast";
import type { ChatConfig } from "../use-chat-session";

/** "Name (OpenAI · gpt-4o)": spec §2, each provider shows its name, provider and model. */
export const providerOptionLabel = (p: ChatProvider) => `${p.name} (${AI_PROVIDER_LABELS[p.provider]} · ${p.model})`;

interface ChatConfigDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  providers: ChatProvider[];
  config: ChatConfig;
  onApply: (config: ChatConfig) => void;
  /** Where focus goes when the dialog closes (it has no Radix trigger to go back to). */
  onCloseAutoFocus: (event: Event) => void;
}

/** Spec §2 "Chat Configuration": the dialog edits a copy; Apply Configuration makes it the chat's. */
export function ChatConfigDialog({ open, onOpenChange, providers, config, onApply, onCloseAutoFocus }: ChatConfigDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl" onCloseAutoFocus={onCloseAutoFocus}>
        {/* Mounted on open: the form starts from the chat's current settings every time. */}
        {open && <ConfigForm providers={providers} config={config} onApply={onApply} onCancel={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function ConfigForm({
  providers,
  config,
  onApply,
  onCancel,
}: {
  providers: ChatProvider[];
  config: ChatConfig;
  onApply: (c: ChatConfig) => void;
  onCancel: () => void;
}) {
  const [providerId, setProviderId] = useState<string>(config.providerId ?? "");
  const [sources, setSources] = useState<DataSource[]>(config.sources);
  const [systemMessage, setSystemMessage] = useState(config.systemMessage);
  const generate = useGenerateSystemMessage();
  const complete = providerId !== "" && sources.length > 0;

  const toggle = (key: DataSource, checked: boolean) =>
    // Kept in the spec's order whatever the order of the clicks.
    setSources((current) => DATA_SOURCES.map((s) => s.key).filter((k) => (k === key ? checked : current.includes(k))));

  const askAi = () => {
    if (!complete) {
      toast({ title: CHAT_TEXT.configRequiredTitle, description: CHAT_TEXT.configRequired });
      return;
    }
    generate.mutate({ providerId, mcpTools: sources }, { onSuccess: (data) => setSystemMessage(data.systemMessage) });
  };

  return (
    <form
      className="grid gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        if (complete && !generate.isPending) onApply({ providerId, sources, systemMessage });
      }}
    >
      <DialogHeader>
        <DialogTitle>{CHAT_TEXT.dialogTitle}</DialogTitle>
        <DialogDescription>Choose the AI provider, the data sources it may search, and optional instructions.</DialogDescription>
      </DialogHeader>

      <div className="grid gap-2">
        {/* With no provider there is no select: the label then names nothing. */}
        <Label htmlFor={providers.length > 0 ? "chat-provider" : undefined}>AI Provider</Label>
        {providers.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No active AI provider.{" "}
            <Link href="/ai-providers" className="text-primary underline underline-offset-2">
              Add one on the AI Providers screen
            </Link>
            .
          </p>
        ) : (
          <NativeSelect id="chat-provider" value={providerId} onChange={(event) => setProviderId(event.target.value)}>
            {providerId === "" && <option value="">Select a provider</option>}
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {providerOptionLabel(p)}
              </option>
            ))}
          </NativeSelect>
        )}
      </div>

      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Data Sources</legend>
        {DATA_SOURCES.map((source) => (
          <div key={source.key} className="flex items-start gap-3 rounded-md border border-border p-3">
            <Checkbox
              id={`chat-source-${source.key}`}
              checked={sources.includes(source.key)}
              onCheckedChange={(checked) => toggle(source.key, checked === true)}
              aria-describedby={`chat-source-${source.key}-hint`}
              className="mt-0.5"
            />
            <div className="grid gap-1">
              <Label htmlFor={`chat-source-${source.key}`}>{source.label}</Label>
              <p id={`chat-source-${source.key}-hint`} className="text-xs text-muted-foreground">
                {source.description}
              </p>
            </div>
          </div>
        ))}
        {/* The live region stays mounted, so screen readers announce the warning when it appears. */}
        <div role="status">
          {sources.length === 0 && (
            <p className="flex items-center gap-2 text-sm text-warning">
              <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
              {CHAT_TEXT.sourcesWarning}
            </p>
          )}
        </div>
      </fieldset>

      <div className="grid gap-2">
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor="chat-system-message">System Message (optional)</Label>
          <Button type="button" variant="outline" size="sm" onClick={askAi} disabled={generate.isPending} aria-busy={generate.isPending}>
            {generate.isPending ? <Spinner /> : <Sparkles aria-hidden="true" />}
            {generate.isPending ? CHAT_TEXT.generating : CHAT_TEXT.askAi}
          </Button>
        </div>
        <Textarea
          id="chat-system-message"
          rows={4}
          value={systemMessage}
          maxLength={CHAT_LIMITS.maxSystemMessageChars}
          onChange={(event) => setSystemMessage(event.target.value)}
          // UI.md: the form is disabled while busy; the generated message replaces what is here.
          disabled={generate.isPending}
          placeholder="Instructions for the assistant, e.g. the tone or what to look for first"
          className="resize-y"
        />
      </div>

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!complete || generate.isPending}>
          {CHAT_TEXT.apply}
        </Button>
      </DialogFooter>
    </form>
  );
}
