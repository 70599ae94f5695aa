import type { BitbucketDiffstat } from "./bitbucket.client";
import type { DcChange, DcDiff } from "./bitbucket-dc-shapes";

/**
 * Bitbucket DC's diffs: its changes carry no line counts and its diffs are JSON hunks (RestDiff:
 * `hunks` of ADDED/REMOVED/CONTEXT `segments`), so the Cloud's diffstat and unified text are made
 * from them here.
 */

const CHANGE_STATUS: Record<string, string> = { ADD: "added", DELETE: "removed", MODIFY: "modified", MOVE: "renamed", COPY: "added" };

/** A change as a diffstat entry, its line counts from the diff (DC's changes carry none). */
export function diffstatOf(c: DcChange, counts: Map<string, { added: number; removed: number }>): BitbucketDiffstat {
  const path = c.path.toString ?? c.path.name ?? "?";
  const old = c.type === "ADD" ? null : (c.srcPath?.toString ?? (c.type === "DELETE" || c.type === "MODIFY" ? path : null));
  const n = counts.get(path) ?? counts.get(old ?? "") ?? { added: 0, removed: 0 };
  return {
    status: CHANGE_STATUS[c.type] ?? "modified",
    lines_added: n.added,
    lines_removed: n.removed,
    old: old === null ? null : { path: old },
    new: c.type === "DELETE" ? null : { path },
  };
}

/** Lines added and removed per file of a DC diff (by its new path, or the old one for a removed file). */
export function lineCounts(diff: DcDiff): Map<string, { added: number; removed: number }> {
  const counts = new Map<string, { added: number; removed: number }>();
  for (const d of diff.diffs ?? []) {
    const n = { added: 0, removed: 0 };
    for (const h of d.hunks ?? [])
      for (const seg of h.segments ?? []) {
        if (seg.type === "ADDED") n.added += seg.lines?.length ?? 0;
        if (seg.type === "REMOVED") n.removed += seg.lines?.length ?? 0;
      }
    counts.set(d.destination?.toString ?? d.source?.toString ?? "?", n);
  }
  return counts;
}

/**
 * A DC JSON diff as a unified diff (git's format: `diff --git`, `---`/`+++`, `@@` hunks), the
 * text the Cloud API answers and the diff tools cut and narrow. DC's own truncation is said in
 * the text rather than hidden.
 */
export function unifiedDiff(diff: DcDiff): string {
  const out: string[] = [];
  for (const d of diff.diffs ?? []) {
    const from = d.source?.toString ?? null;
    const to = d.destination?.toString ?? null;
    out.push(`diff --git a/${from ?? to} b/${to ?? from}`);
    if (from === null) out.push("new file mode 100644");
    if (to === null) out.push("deleted file mode 100644");
    if (from !== null && to !== null && from !== to) out.push(`rename from ${from}`, `rename to ${to}`);
    if (d.binary) {
      out.push(`Binary files ${from ? `a/${from}` : "/dev/null"} and ${to ? `b/${to}` : "/dev/null"} differ`);
      continue;
    }
    if (!d.hunks?.length) continue;
    out.push(from ? `--- a/${from}` : "--- /dev/null", to ? `+++ b/${to}` : "+++ /dev/null");
    for (const h of d.hunks) {
      out.push(`@@ -${h.sourceLine},${h.sourceSpan} +${h.destinationLine},${h.destinationSpan} @@`);
      for (const seg of h.segments ?? []) {
        const mark = seg.type === "ADDED" ? "+" : seg.type === "REMOVED" ? "-" : " ";
        for (const l of seg.lines ?? []) out.push(`${mark}${l.line}`);
      }
    }
    if (d.truncated) out.push("\\ Bitbucket truncated the diff of this file");
  }
  if (diff.truncated) out.push("\\ Bitbucket truncated this diff: some files are not shown");
  return out.length ? `${out.join("\n")}\n` : "";
}
