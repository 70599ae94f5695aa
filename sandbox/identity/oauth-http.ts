import { json, type Reply, type SandboxRequest } from "../core/http";

/** What the imitated authorization servers' endpoints share: reading parameters, and the error body. */

/** A parameter's value, or undefined when absent. */
export type ParamReader = (name: string) => string | undefined;

/** The form-encoded (or JSON) body's string parameters. */
export const formValue = (req: SandboxRequest): ParamReader => {
  const body = typeof req.body === "object" && req.body !== null && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  return (name) => (typeof body[name] === "string" ? body[name] : undefined);
};

/** The query string's parameters. */
export const queryValue =
  (req: SandboxRequest): ParamReader =>
  (name) =>
    req.query.get(name) ?? undefined;

/** The named parameters that are present, as a consent form posts them back. */
export function pickParams(get: ParamReader, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = get(name);
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/** A token endpoint error: `{"error", "error_description"}`, never cached. */
export const oauthError = (status: number, error: string, description: string): Reply =>
  json({ error, error_description: description }, status, { "cache-control": "no-store" });

/** A token endpoint success, never cached. */
export const tokenReply = (body: Record<string, unknown>): Reply => json(body, 200, { "cache-control": "no-store" });
