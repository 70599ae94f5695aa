/**
 * Splits a reply being streamed into the part that will not change any more (whole blocks, up to
 * the last blank line that starts a new top-level block) and the tail still being written, so the
 * settled part's Markdown is parsed once (a memoized renderer sees the same string) and only the
 * tail is parsed again each frame. A split never falls inside a fenced code block, nor before a
 * list item or an indented line (a loose list or a list item's next paragraph), where parsing the
 * halves apart would read differently from the whole. The finished reply is rendered whole.
 */
export function splitSettled(text: string): { settled: string; tail: string } {
  let at = 0;
  let inFence = false;
  let previousBlank = false;
  let offset = 0;
  for (const line of text.split("\n")) {
    const start = offset;
    offset += line.length + 1;
    if (/^\s{0,3}(```|~~~)/.test(line)) {
      if (!inFence && previousBlank) at = start;
      inFence = !inFence;
      previousBlank = false;
      continue;
    }
    if (inFence) continue;
    const blank = line.trim() === "";
    if (!blank && previousBlank && !/^(\s|[-*+]\s|\d+[.)]\s|>)/.test(line)) at = start;
    previousBlank = blank;
  }
  // The last line may still be growing: a split only counts once a later line has begun.
  return { settled: text.slice(0, at), tail: text.slice(at) };
}
