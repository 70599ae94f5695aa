import { z } from "zod";

/**
 * Fault knobs for tests and demos, per endpoint: a matching request is delayed, answered with an
 * error status (429 with Retry-After), left hanging, or answered with an oversized body.
 */
export const FaultSpecSchema = z
  .object({
    /** Any method when absent. */
    method: z.string().toUpperCase().optional(),
    /** A path prefix, or a regular expression when it starts with "^". */
    path: z.string().min(1),
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    status: z.number().int().min(400).max(599).optional(),
    /** Seconds, sent as Retry-After (with status 429 unless another status is given). */
    retryAfter: z.number().int().min(0).max(86_400).optional(),
    /** Never answer: the socket stays open until the client gives up or the sandbox stops. */
    hang: z.boolean().optional(),
    /** Answer 200 with a JSON body of about this many bytes. */
    oversizeBytes: z
      .number()
      .int()
      .min(1)
      .max(200 * 1024 * 1024)
      .optional(),
    /**
     * Answer with this JSON (status 200 unless another is given) instead of the service: an
     * upstream that answers otherwise than it was asked, such as a search answering with issues
     * its query excludes.
     */
    body: z.unknown().optional(),
    /** Applies to this many matching requests, then expires (default: until cleared). */
    times: z.number().int().min(1).optional(),
  })
  .strict();

export type FaultSpec = z.input<typeof FaultSpecSchema>;

interface ActiveFault {
  id: number;
  spec: z.output<typeof FaultSpecSchema>;
  matches: (path: string) => boolean;
  remaining: number;
}

export class Faults {
  private list: ActiveFault[] = [];
  private nextId = 1;

  add(input: FaultSpec): number {
    const spec = FaultSpecSchema.parse(input);
    const matches = spec.path.startsWith("^")
      ? (
          (re: RegExp) => (p: string) =>
            re.test(p)
        )(new RegExp(spec.path))
      : (p: string) => p.startsWith(spec.path);
    const id = this.nextId++;
    this.list.push({ id, spec, matches, remaining: spec.times ?? Number.POSITIVE_INFINITY });
    return id;
  }

  remove(id: number): void {
    this.list = this.list.filter((f) => f.id !== id);
  }

  clear(): void {
    this.list = [];
  }

  get size(): number {
    return this.list.length;
  }

  /** The fault that applies to this request (the newest one matching), consuming one use of it. */
  take(method: string, path: string): ActiveFault["spec"] | null {
    if (this.list.length === 0) return null;
    for (let i = this.list.length - 1; i >= 0; i--) {
      const fault = this.list[i]!;
      if (fault.spec.method && fault.spec.method !== method) continue;
      if (!fault.matches(path)) continue;
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.list.splice(i, 1);
      return fault.spec;
    }
    return null;
  }
}
