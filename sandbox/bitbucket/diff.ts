import { treeAt } from "./git";
import type { FileDiff, Repo } from "./model";

/** Unified diffs (git format) between two seeded trees, computed once per pair and cached. */

const CONTEXT = 3;
const DIFF_CACHE_LIMIT = 400;

/** A short, stable blob id for the `index` line (FNV-1a of the content). */
export function blobId(content: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < content.length; i++) {
    h ^= content.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0").slice(0, 7);
}

type Edit = { op: " " | "-" | "+"; text: string; oldNo: number; newNo: number };

const splitLines = (text: string): string[] => {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
};

/** A line-level edit script: common prefix and suffix trimmed, LCS on the middle (files are small). */
function editScript(a: string[], b: string[]): Edit[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] =
        a[start + i] === b[start + j]
          ? table[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!);
    }
  }
  const edits: Edit[] = [];
  for (let k = 0; k < start; k++) edits.push({ op: " ", text: a[k]!, oldNo: k + 1, newNo: k + 1 });
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      edits.push({ op: " ", text: a[start + i]!, oldNo: start + i + 1, newNo: start + j + 1 });
      i++;
      j++;
    } else if (i < n && (j >= m || table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!)) {
      // Deletions first, as git prints them.
      edits.push({ op: "-", text: a[start + i]!, oldNo: start + i + 1, newNo: start + j });
      i++;
    } else {
      edits.push({ op: "+", text: b[start + j]!, oldNo: start + i, newNo: start + j + 1 });
      j++;
    }
  }
  for (let k = 0; k < a.length - endA; k++) edits.push({ op: " ", text: a[endA + k]!, oldNo: endA + k + 1, newNo: endB + k + 1 });
  return edits;
}

/** Hunks with three lines of context, as `git diff` prints them. */
function hunks(edits: Edit[]): { body: string; added: number; removed: number } {
  const out: string[] = [];
  let added = 0;
  let removed = 0;
  let i = 0;
  while (i < edits.length) {
    while (i < edits.length && edits[i]!.op === " ") i++;
    if (i >= edits.length) break;
    const first = Math.max(0, i - CONTEXT);
    let last = i;
    // Extend while the next change is within 2*CONTEXT lines of unchanged text.
    let k = i;
    while (k < edits.length) {
      if (edits[k]!.op !== " ") {
        last = k;
        k++;
        continue;
      }
      let run = 0;
      while (k + run < edits.length && edits[k + run]!.op === " ") run++;
      if (k + run >= edits.length || run > 2 * CONTEXT) break;
      k += run;
    }
    const end = Math.min(edits.length - 1, last + CONTEXT);
    const slice = edits.slice(first, end + 1);
    const oldCount = slice.filter((e) => e.op !== "+").length;
    const newCount = slice.filter((e) => e.op !== "-").length;
    const head = slice[0]!;
    const oldStart = oldCount === 0 ? head.oldNo : head.op === "+" ? head.oldNo + 1 : head.oldNo;
    const newStart = newCount === 0 ? head.newNo : head.op === "-" ? head.newNo + 1 : head.newNo;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const e of slice) {
      out.push(`${e.op}${e.text}`);
      if (e.op === "+") added++;
      else if (e.op === "-") removed++;
    }
    i = end + 1;
  }
  return { body: out.join("\n"), added, removed };
}

function fileDiff(path: string, before: string | undefined, after: string | undefined): FileDiff {
  const a = before === undefined ? [] : splitLines(before);
  const b = after === undefined ? [] : splitLines(after);
  const { body, added, removed } = hunks(editScript(a, b));
  const header = [`diff --git a/${path} b/${path}`];
  if (before === undefined) header.push("new file mode 100644", `index 0000000..${blobId(after ?? "")}`, "--- /dev/null", `+++ b/${path}`);
  else if (after === undefined)
    header.push("deleted file mode 100644", `index ${blobId(before)}..0000000`, `--- a/${path}`, "+++ /dev/null");
  else header.push(`index ${blobId(before)}..${blobId(after)} 100644`, `--- a/${path}`, `+++ b/${path}`);
  return {
    status: before === undefined ? "added" : after === undefined ? "removed" : "modified",
    oldPath: before === undefined ? null : path,
    newPath: after === undefined ? null : path,
    linesAdded: added,
    linesRemoved: removed,
    text: `${header.join("\n")}\n${body}${body ? "\n" : ""}`,
  };
}

/** The per-file diffs from commit `from` to commit `to`, sorted by path. */
export function diffTrees(repo: Repo, from: string, to: string): FileDiff[] {
  const key = `${from}..${to}`;
  const cached = repo.diffs.get(key);
  if (cached) return cached;
  const a = treeAt(repo, from);
  const b = treeAt(repo, to);
  const paths = new Set([...a.keys(), ...b.keys()]);
  const out: FileDiff[] = [];
  for (const path of [...paths].sort()) {
    const before = a.get(path);
    const after = b.get(path);
    if (before === after) continue;
    out.push(fileDiff(path, before, after));
  }
  if (repo.diffs.size >= DIFF_CACHE_LIMIT) repo.diffs.clear();
  repo.diffs.set(key, out);
  return out;
}

/** The unified diff text, optionally limited to some paths (`?path=` may repeat). */
export const diffText = (files: FileDiff[], paths: string[] = []): string =>
  files
    .filter((f) => paths.length === 0 || paths.includes(f.newPath ?? "") || paths.includes(f.oldPath ?? ""))
    .map((f) => f.text)
    .join("");
