import { z } from "zod";
import { AppError } from "../lib/app-error";

const Uuid = z.uuid();

/** A path id that cannot exist (not a UUID) is simply not found: never a database error. */
export function uuidParam(value: string | string[] | undefined, what: string): string {
  const parsed = Uuid.safeParse(value);
  if (!parsed.success) throw new AppError("not_found", `${what} not found`);
  return parsed.data;
}
