import { z } from "zod";
import { wellFormed } from "./tool";

/** A unified diff as a tool answers it: narrowed to some files, cut after maxLines (shared by the pull request and commit diff tools). */

export const diffMaxLinesArg = z
  .number()
  .int()
  .min(20, "maxLines must be at least 20")
  .max(5000, "maxLines may be at most 5000")
  .default(500);
export const diffPathsArg = z
  .array(wellFormed(z.string().min(1).max(500), "paths"))
  .max(50)
  .optional();

export const DiffOutputSchema = z.object({
  diff: z.string(),
  lines: z.number().int(),
  shownLines: z.number().int(),
  truncated: z.boolean(),
});
export type DiffOutput = z.output<typeof DiffOutputSchema>;

/** Cuts a unified diff after `maxLines` lines, at a file boundary when one is near. */
export function boundedDiff(diff: string, maxLines: number): { text: string; lines: number; shown: number; truncated: boolean } {
  const all = diff.split("\n");
  if (all.at(-1) === "") all.pop();
  if (all.length <= maxLines) return { text: all.join("\n"), lines: all.length, shown: all.length, truncated: false };
  let cut = maxLines;
  for (let i = maxLines; i > maxLines * 0.8; i--) {
    if (all[i]?.startsWith("diff --git ")) {
      cut = i;
      break;
    }
  }
  return { text: all.slice(0, cut).join("\n"), lines: all.length, shown: cut, truncated: true };
}

/** The files of a unified diff whose old or new path is one of `paths`. */
export function diffOfPaths(diff: string, paths: readonly string[]): string {
  const wanted = new Set(paths);
  return diff
    .split(/(?=^diff --git )/m)
    .filter((file) => {
      const m = /^diff --git a\/(.+?) b\/(.+)$/m.exec(file);
      return m !== null && (wanted.has(m[1]!) || wanted.has(m[2]!));
    })
    .join("");
}

/** The structured answer and the text of a diff tool. */
export function diffAnswer(diff: string, maxLines: number, paths: readonly string[] | undefined): { structured: DiffOutput; text: string } {
  const bounded = boundedDiff(paths?.length ? diffOfPaths(diff, paths) : diff, maxLines);
  const note = bounded.truncated ? `\n\n[… ${bounded.lines - bounded.shown} more lines: raise maxLines, or pass paths]` : "";
  return {
    structured: { diff: bounded.text, lines: bounded.lines, shownLines: bounded.shown, truncated: bounded.truncated },
    text: bounded.text ? `\`\`\`diff\n${bounded.text}\n\`\`\`${note}` : "No changes (or none in the given paths).",
  };
}
