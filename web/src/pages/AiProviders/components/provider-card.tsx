import { CalendarDays, PlugZap } from "lucide-react";
import type { ReactNode } from "react";
import type { AiProvider } from "@contract/ai-providers";
import { useSetAiProviderActive, useTestAiProvider } from "@/api/ai-providers";
import { ActiveBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CardEditDeleteActions } from "@/components/ui/card-actions";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { Time } from "@/components/ui/time";
import { ApiKeyValue } from "./api-key-value";
import { TestResult } from "./test-result";

interface ProviderCardProps {
  provider: AiProvider;
  canWrite: boolean;
  revealed: boolean;
  onToggleReveal: (id: string) => void;
  onEdit: (provider: AiProvider) => void;
  onDelete: (provider: AiProvider) => void;
  deleting: boolean;
}

/** The edit button's selector, where focus goes back when the Edit dialog closes. */
export const editButtonSelector = (id: string) => `[data-edit-for="${CSS.escape(id)}"]`;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 grid-cols-[5.5rem_minmax(0,1fr)] items-center gap-3 sm:grid-cols-[6rem_minmax(0,1fr)] sm:gap-4">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

/**
 * One AI provider (spec section 2): name, Active/Inactive, the provider upper-cased with its model,
 * the masked key with its reveal (docs/decisions.md#write-only-secrets: the hint, never the key),
 * the status switch, the created date, edit and delete; beyond the spec its base URL and the Test
 * action.
 */
export function ProviderCard({ provider, canWrite, revealed, onToggleReveal, onEdit, onDelete, deleting }: ProviderCardProps) {
  const headingId = `ai-provider-${provider.id}-name`;
  const status = useSetAiProviderActive();
  const test = useTestAiProvider();
  // While the switch's write is on its way, it shows where it is going.
  const isActive = status.isPending ? status.variables.isActive : provider.isActive;

  // A result is about the provider as it was tested: an edit makes it stale.
  const result = test.variables?.version === provider.updatedAt ? test.data : undefined;

  return (
    <Card role="article" aria-labelledby={headingId} className="flex min-w-0 flex-col gap-4 p-5 sm:p-6">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={headingId} className="min-w-0 max-w-full truncate text-base font-semibold" title={provider.name}>
              {provider.name}
            </h3>
            <ActiveBadge active={isActive} />
          </div>
          <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
            <span className="font-medium tracking-wide text-foreground">{provider.provider.toUpperCase()}</span>
            <span aria-hidden="true">·</span>
            <span className="min-w-0 break-all font-mono text-xs">{provider.model}</span>
          </p>
        </div>
        {canWrite && (
          <CardEditDeleteActions
            label={provider.name}
            noun="provider"
            onEdit={() => onEdit(provider)}
            onDelete={() => onDelete(provider)}
            deleting={deleting}
            editFor={provider.id}
          />
        )}
      </div>

      <dl className="grid gap-3">
        {provider.baseUrl && (
          <Field label="Base URL">
            <span className="block break-all font-mono text-xs">{provider.baseUrl}</span>
          </Field>
        )}
        <Field label="API Key">
          <ApiKeyValue provider={provider} revealed={revealed} onToggleReveal={() => onToggleReveal(provider.id)} />
        </Field>
        <Field label="Status">
          <div className="flex items-center gap-2">
            {/* Busy, not disabled, while its write is under way: a disabled control would drop the keyboard's focus. */}
            <Switch
              checked={isActive}
              disabled={!canWrite}
              aria-busy={status.isPending || undefined}
              aria-label={`Active status of ${provider.name}`}
              onCheckedChange={(checked) => {
                if (!status.isPending) status.mutate({ id: provider.id, isActive: checked });
              }}
            />
            <span className="text-sm" aria-hidden="true">
              {isActive ? "Active" : "Inactive"}
            </span>
          </div>
        </Field>
        <Field label="Created">
          <span className="inline-flex items-center gap-1.5 text-sm">
            <CalendarDays className="size-3.5 text-muted-foreground" aria-hidden="true" />
            <Time iso={provider.createdAt} />
          </span>
        </Field>
      </dl>

      {canWrite && (
        <div className="min-w-0 border-t border-border pt-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-muted-foreground">Ask for a one-word reply to check the key and the model.</p>
            {/* aria-disabled rather than disabled while testing, so focus stays on the button for the result. */}
            <Button
              variant="outline"
              size="sm"
              aria-disabled={test.isPending || undefined}
              aria-busy={test.isPending || undefined}
              className="aria-disabled:cursor-wait aria-disabled:opacity-60"
              onClick={() => {
                if (!test.isPending) test.mutate({ id: provider.id, version: provider.updatedAt });
              }}
            >
              {test.isPending ? <Spinner /> : <PlugZap aria-hidden="true" />}
              {test.isPending ? "Testing..." : "Test"}
              <span className="sr-only"> {provider.name}</span>
            </Button>
          </div>
          <TestResult name={provider.name} result={result} />
        </div>
      )}
    </Card>
  );
}
