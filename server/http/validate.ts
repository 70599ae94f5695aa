import type { z } from "zod";
import type { FieldErrors } from "../../contract/errors";
import { findUnsafeText, TEXT_MESSAGES } from "../../contract/text";
import { AppError } from "../lib/app-error";

/**
 * Parses `input` with a contract schema. Failure is a 400 whose `fields` map each field to its
 * first message (the text the console shows under that field).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  // The backstop under every schema: no control character (U+0000 above all) in any string,
  // named or not, and no nesting deeper than any of our shapes has.
  const unsafe = findUnsafeText(input);
  if (unsafe) {
    const message = unsafe.problem === "control" ? TEXT_MESSAGES.control : "Input is nested too deeply";
    throw new AppError("validation_failed", message, { fields: { [unsafe.path]: message } });
  }
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
