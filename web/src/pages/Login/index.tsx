import { applyServerFieldErrors } from "@/lib/form-errors";
import { zodResolver } from "@hookform/resolvers/zod";
import { CircleExclamationPoint } from "lucide-react";
import { useForm } from "react-hook-form";
import { LOGIN_FAILED_MESSAGE, LoginSchema, type Login } from "@contract/auth";
import { useLogin } from "@/api/session";
import { BrandPage } from "@/components/layout/brand-page";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { useDocumentTitle } from "@/hooks/use-document-title";
import { FieldError } from "@/components/ui/field-error";

/**
 * Sign-in (spec sections 2 and 5). Shown on every path while signed out
 * (docs/decisions.md#sign-in-and-deep-links), so the address is left alone: after sign-in the same
 * screen opens, or the dashboard from /login.
 */
export default function LoginPage() {
  useDocumentTitle("Sign in");
  const login = useLogin();
  const form = useForm<Login>({
    resolver: zodResolver(LoginSchema),
    defaultValues: { username: "", password: "" },
  });
  const { errors } = form.formState;
  const busy = login.isPending;

  const onSubmit = form.handleSubmit((values) => {
    login.mutate(values, {
      // A 400 names the fields it rejected; show those messages under the fields too.
      onError: (error) => applyServerFieldErrors(form, error, ["username", "password"]),
    });
  });

  const failure = login.error ? (login.error.serverMessage ?? LOGIN_FAILED_MESSAGE) : null;

  return (
    <BrandPage>
      <Card className="shadow-sm">
        <CardHeader className="pb-4">
          <h1 className="text-lg font-semibold leading-tight">Sign in to Bridgekeeper</h1>
          <CardDescription>Use your console account to manage the MCP server.</CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={onSubmit} className="space-y-4" aria-busy={busy}>
            <div className="space-y-2">
              <Label htmlFor="login-username">Username</Label>
              <Input
                id="login-username"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                autoFocus
                required
                disabled={busy}
                aria-invalid={errors.username ? true : undefined}
                aria-describedby={errors.username ? "login-username-error" : undefined}
                {...form.register("username")}
              />
              <FieldError id="login-username-error" message={errors.username?.message} />
            </div>

            <div className="space-y-2">
              <Label htmlFor="login-password">Password</Label>
              <Input
                id="login-password"
                type="password"
                autoComplete="current-password"
                required
                disabled={busy}
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={errors.password ? "login-password-error" : undefined}
                {...form.register("password")}
              />
              <FieldError id="login-password-error" message={errors.password?.message} />
            </div>

            {failure && (
              <div
                role="alert"
                className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2.5 text-sm text-destructive"
              >
                <CircleExclamationPoint className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span>{failure}</span>
              </div>
            )}

            <Button type="submit" className="w-full" disabled={busy}>
              {busy && <Spinner />}
              {busy ? "Signing in..." : "Sign In"}
            </Button>
          </form>
        </CardContent>
      </Card>
    </BrandPage>
  );
}
