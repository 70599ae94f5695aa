import type { z } from "zod";
import type { FieldErrors } from "../../contract/errors";
import { AppError } from "../lib/app-error";

/**
 * Parses `input` with a contract schema. Failure is a 400 whose `fields` map each field to its
 * first message (the text the console shows under that field).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.join(".") : "_";
    fields[key] ??= issue.message;
  }
  const message = Object.values(fields).join("; ");
  throw new AppError("validation_failed", message || "Invalid input", { fields });
}
