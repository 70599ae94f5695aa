import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";

/** A titled code block with a copy button; long lines scroll inside the block, never the page. */
export function CodeExample({
  id,
  title,
  description,
  code,
  what,
}: {
  id: string;
  title: string;
  description: string;
  code: string;
  what: string;
}) {
  return (
    <Card role="region" aria-labelledby={id} className="min-w-0">
      <CardHeader className="flex-row items-start justify-between gap-3 space-y-0 pb-3">
        <div className="min-w-0 space-y-1.5">
          <CardTitle id={id}>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        <CopyButton value={code} what={what} label={`Copy the ${title.toLowerCase()} example`} />
      </CardHeader>
      <CardContent>
        <pre
          tabIndex={0}
          className="max-w-full overflow-x-auto rounded-md bg-muted p-4 font-mono text-xs leading-relaxed focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <code>{code}</code>
        </pre>
      </CardContent>
    </Card>
  );
}
