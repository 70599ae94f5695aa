import { CircleCheck, Circle, Rocket, X } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "wouter";
import { SETUP_STEPS, setupDone } from "@contract/setup";
import { useSession } from "@/api/session";
import { useSetupStatus } from "@/api/setup";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useCan } from "@/hooks/use-permission";
import { cn } from "@/lib/utils";

const dismissedKey = (userId: string) => `bridgekeeper.getStarted.dismissed.${userId}`;

function readDismissed(userId: string | undefined): boolean {
  if (!userId) return false;
  try {
    return window.localStorage.getItem(dismissedKey(userId)) === "1";
  } catch {
    return false;
  }
}

/**
 * "Get started" (issue 25): for an administrator, until every step is done or they dismiss it.
 * Each step ticks itself from live state (GET /api/setup-status) and links to where it is done.
 */
export function GetStarted() {
  const canConfigure = useCan("config.write");
  const { user } = useSession();
  const status = useSetupStatus({ enabled: canConfigure });
  const [dismissedNow, setDismissed] = useState(false);
  const dismissed = dismissedNow || readDismissed(user?.id);
  const titleId = useId();
  const data = status.data;
  if (!canConfigure || dismissed || !data || setupDone(data)) return null;

  const done = SETUP_STEPS.filter((step) => data[step.key]).length;
  const dismiss = () => {
    setDismissed(true);
    try {
      if (user) window.localStorage.setItem(dismissedKey(user.id), "1");
    } catch {
      // Private browsing without storage: dismissed for this visit only.
    }
  };
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader className="flex-row items-start justify-between gap-3 space-y-0 pb-4">
        <div className="min-w-0 space-y-1.5">
          <CardTitle id={titleId} className="flex items-center gap-2">
            <Rocket className="size-4 text-muted-foreground" aria-hidden="true" />
            Get started
          </CardTitle>
          <CardDescription>
            {done} of {SETUP_STEPS.length} done. Each step ticks itself once it is done.
          </CardDescription>
        </div>
        <Button variant="ghost" size="icon" className="size-8 shrink-0" aria-label="Dismiss Get started" title="Dismiss" onClick={dismiss}>
          <X aria-hidden="true" />
        </Button>
      </CardHeader>
      <CardContent>
        <ol aria-label="Set-up steps" className="divide-y divide-border">
          {SETUP_STEPS.map((step) => {
            const complete = data[step.key];
            return (
              <li key={step.key} className="flex items-center gap-3 py-2.5 first:pt-0 last:pb-0">
                {complete ? (
                  <CircleCheck className="size-5 shrink-0 text-success" aria-hidden="true" />
                ) : (
                  <Circle className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                )}
                <span
                  className={cn("min-w-0 flex-1 text-sm", complete && "text-muted-foreground line-through decoration-muted-foreground/50")}
                >
                  {step.label}
                  {step.optional && <span className="text-muted-foreground"> (optional)</span>}
                  <span className="sr-only">{complete ? ": done" : ": to do"}</span>
                </span>
                {!complete && (
                  <Button variant="outline" size="sm" asChild>
                    <Link href={step.href} aria-label={`${step.action}: ${step.label}`}>
                      {step.action}
                    </Link>
                  </Button>
                )}
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}
