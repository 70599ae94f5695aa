import type { FieldPath, FieldValues, UseFormSetError } from "react-hook-form";
import type { ApiError } from "@/api/client";

/**
 * A 400 or 409 names the fields it rejected (spec section 5): each message goes under its field
 * (a list entry's "jiraProjects.0" under jiraProjects, its first message only), and focus moves to
 * the first one. Fields the form does not have are left for the caller's alert. Answers whether
 * any field took a message.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  form: { setError: UseFormSetError<T> },
  error: ApiError,
  fields: readonly FieldPath<T>[],
): boolean {
  const placed = new Set<string>();
  for (const [key, message] of Object.entries(error.fields ?? {})) {
    const name = fields.find((field) => key === field || key.startsWith(`${field}.`));
    if (!name || !message || placed.has(name)) continue;
    form.setError(name, { type: "server", message }, { shouldFocus: placed.size === 0 });
    placed.add(name);
  }
  return placed.size > 0;
}
