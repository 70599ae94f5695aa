import type { SandboxRequest } from "../core/http";
import { blobId } from "./diff";
import { dcPath, repoWeb } from "./dc-present";
import type { FileDiff, Repo } from "./model";

/** Bitbucket DC's changes (RestChange) and JSON diffs (RestDiff) of the model's file diffs. */

const self = (href: string) => ({ self: [{ href }] });

const CHANGE_TYPES = { added: "ADD", removed: "DELETE", modified: "MODIFY" } as const;

/** One file's change (RestChange): no line counts on DC, only what changed and how. */
export function dcChange(req: SandboxRequest, r: Repo, f: FileDiff, at: string) {
  const type = CHANGE_TYPES[f.status];
  const path = f.newPath ?? f.oldPath ?? "";
  return {
    contentId: f.newPath ? blobId(f.text + f.newPath) : "0000000000000000000000000000000000000000",
    ...(f.oldPath ? { fromContentId: blobId(f.oldPath + f.text) } : {}),
    path: dcPath(path),
    executable: false,
    percentUnchanged: -1,
    type,
    nodeType: "FILE",
    links: self(`${repoWeb(req, r)}/browse/${path}?at=${at}`),
    properties: { gitChangeType: type },
  };
}

type Segment = {
  type: "ADDED" | "REMOVED" | "CONTEXT";
  lines: { source: number; destination: number; line: string; truncated: false }[];
  truncated: false;
};

/** A file's diff as DC's JSON (RestDiff): hunks of ADDED/REMOVED/CONTEXT segments, read back from the unified text. */
export function dcFileDiff(f: FileDiff) {
  const hunks: {
    sourceLine: number;
    sourceSpan: number;
    destinationLine: number;
    destinationSpan: number;
    segments: Segment[];
    truncated: false;
  }[] = [];
  let src = 0;
  let dst = 0;
  for (const line of f.text.split("\n")) {
    const head = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@/.exec(line);
    if (head) {
      [src, dst] = [Number(head[1]), Number(head[3])];
      hunks.push({
        sourceLine: src,
        sourceSpan: Number(head[2]),
        destinationLine: dst,
        destinationSpan: Number(head[4]),
        segments: [],
        truncated: false,
      });
      continue;
    }
    const hunk = hunks[hunks.length - 1];
    const type = line.startsWith("+") ? "ADDED" : line.startsWith("-") ? "REMOVED" : line.startsWith(" ") ? "CONTEXT" : null;
    if (!hunk || !type || line.startsWith("+++") || line.startsWith("---")) continue;
    let seg = hunk.segments[hunk.segments.length - 1];
    if (seg?.type !== type) hunk.segments.push((seg = { type, lines: [], truncated: false }));
    seg.lines.push({ source: src, destination: dst, line: line.slice(1), truncated: false });
    if (type !== "ADDED") src++;
    if (type !== "REMOVED") dst++;
  }
  return {
    source: f.oldPath ? dcPath(f.oldPath) : null,
    destination: f.newPath ? dcPath(f.newPath) : null,
    hunks,
    truncated: false,
  };
}
