import { CircleCheck, CircleX } from "lucide-react";
import type { AiProviderTestResult } from "@contract/ai-providers";
import { formatMs } from "@/lib/format";

/**
 * What the Test action found, under the card's Test button: the model's answer, or the provider's
 * reason in the destructive colour. A polite live region, so a screen reader hears it too.
 */
export function TestResult({ name, result }: { name: string; result: AiProviderTestResult | undefined }) {
  return (
    <div role="status" aria-label={`Test result of ${name}`} className="min-w-0">
      {result &&
        (result.ok ? (
          <p className="mt-3 flex min-w-0 items-start gap-2 rounded-md border border-success/25 bg-success/10 px-3 py-2 text-sm text-success">
            <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span className="min-w-0 break-words">
              <span className="font-medium">Answered in {formatMs(result.latencyMs)}:</span>{" "}
              <span className="text-foreground">“{result.answer || "(an empty answer)"}”</span>
            </span>
          </p>
        ) : (
          <p className="mt-3 flex min-w-0 items-start gap-2 rounded-md border border-destructive/25 bg-destructive/10 px-3 py-2 text-sm text-destructive">
            <CircleX className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span className="min-w-0 break-words">
              <span className="font-medium">Test failed:</span> {result.error ?? "The provider call failed"}
            </span>
          </p>
        ))}
    </div>
  );
}
