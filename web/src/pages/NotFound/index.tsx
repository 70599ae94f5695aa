import { ArrowLeft, MapPinOff } from "lucide-react";
import { Link, useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

/** Any path that is not a console route (signed in; signed out, every path shows the login page). */
export default function NotFoundPage() {
  const [location] = useLocation();
  return (
    <Card className="mx-auto mt-8 flex max-w-lg flex-col items-center px-6 py-14 text-center">
      <span className="mb-4 flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <MapPinOff className="size-6" aria-hidden="true" />
      </span>
      <h1 className="text-2xl font-semibold tracking-tight">404 Page Not Found</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        The address <code className="break-all rounded bg-muted px-1 py-0.5 text-xs">{location}</code> is not a page of this console.
      </p>
      <Button asChild className="mt-6">
        <Link href="/">
          <ArrowLeft aria-hidden="true" />
          Back to the dashboard
        </Link>
      </Button>
    </Card>
  );
}
