/**
 * A unified line diff of two texts (longest common subsequence of lines, common prefix and suffix
 * trimmed first), with `context` lines around each change, as `diff -u` prints it. No diff library
 * is among the dependencies, and pages are small enough for the quadratic table: past `maxCells`
 * the differing middle is shown as removed and added whole.
 */
type Op = { kind: " " | "-" | "+"; line: string; a: number; b: number };

function script(a: string[], b: string[], maxCells: number): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const ops: Op[] = [];
  for (let i = 0; i < head; i++) ops.push({ kind: " ", line: a[i]!, a: i, b: i });
  if ((x.length + 1) * (y.length + 1) > maxCells) {
    x.forEach((line, i) => ops.push({ kind: "-", line, a: head + i, b: head }));
    y.forEach((line, j) => ops.push({ kind: "+", line, a: head + x.length, b: head + j }));
  } else {
    // lcs[i][j]: the longest common subsequence of x[i..] and y[j..].
    const w = y.length + 1;
    const lcs = new Uint32Array((x.length + 1) * w);
    for (let i = x.length - 1; i >= 0; i--) {
      for (let j = y.length - 1; j >= 0; j--)
        lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (i < x.length && j < y.length && x[i] === y[j]) ops.push({ kind: " ", line: x[i]!, a: head + i++, b: head + j++ });
      // Removals before additions where either keeps the subsequence, as diff -u prints a change.
      else if (i < x.length && (j === y.length || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!))
        ops.push({ kind: "-", line: x[i]!, a: head + i++, b: head + j });
      else ops.push({ kind: "+", line: y[j]!, a: head + i, b: head + j++ });
    }
  }
  for (let k = 0; k < tail; k++) ops.push({ kind: " ", line: a[a.length - tail + k]!, a: a.length - tail + k, b: b.length - tail + k });
  return ops;
}

export interface LineDiff {
  /** The unified diff (headers and hunks); empty when the texts are the same. */
  diff: string;
  added: number;
  removed: number;
}

export function unifiedLineDiff(
  before: string,
  after: string,
  labels: { from: string; to: string },
  context = 3,
  maxCells = 4_000_000,
): LineDiff {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  const ops = script(a, b, maxCells);
  const changed = ops.map((op, i) => (op.kind === " " ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return { diff: "", added: 0, removed: 0 };
  // Hunks: runs of changes whose gaps are at most 2 × context lines, with context around them.
  const hunks: [number, number][] = [];
  for (const i of changed) {
    const last = hunks[hunks.length - 1];
    if (last && i - last[1] <= 2 * context + 1) last[1] = i;
    else hunks.push([i, i]);
  }
  const out = [`--- ${labels.from}`, `+++ ${labels.to}`];
  for (const [first, lastChange] of hunks) {
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length - 1, lastChange + context);
    const slice = ops.slice(from, to + 1);
    const aCount = slice.filter((op) => op.kind !== "+").length;
    const bCount = slice.filter((op) => op.kind !== "-").length;
    const aStart = aCount === 0 ? slice[0]!.a : slice[0]!.a + 1;
    const bStart = bCount === 0 ? slice[0]!.b : slice[0]!.b + 1;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`, ...slice.map((op) => `${op.kind}${op.line}`));
  }
  return { diff: out.join("\n"), added: ops.filter((op) => op.kind === "+").length, removed: ops.filter((op) => op.kind === "-").length };
}
