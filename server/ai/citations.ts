import type { Citation } from "../../contract/chat";
import type { UpstreamService } from "../upstream/errors";

const MAX_CITATIONS = 10;
const isWebUrl = (v: unknown): v is string => typeof v === "string" && /^https?:\/\//i.test(v);
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : null);

interface Candidate extends Citation {
  /** Words whose presence in the answer means the answer used this object (an issue key, a PR number, a title). */
  marks: string[];
}

/** The linkable object a tool result describes: a Jira issue, a Confluence page, a Bitbucket pull request or repository. */
function candidateOf(service: UpstreamService, item: Record<string, unknown>): Candidate | null {
  if (!isWebUrl(item.url)) return null;
  const url = item.url;
  if (service === "jira") {
    const key = str(item.key);
    if (!key) return null;
    const summary = str(item.summary);
    return { kind: "jira", title: summary ? `${key}: ${summary}` : key, url, marks: [key] };
  }
  if (service === "confluence") {
    const title = str(item.title);
    return title ? { kind: "confluence", title, url, marks: [title, url] } : null;
  }
  const title = str(item.title) ?? str(item.fullName) ?? str(item.name) ?? str(item.slug);
  if (!title) return null;
  const id = str(item.id);
  const isPullRequest = id !== null && str(item.title) !== null;
  return {
    kind: "bitbucket",
    title: isPullRequest ? `#${id} ${title}` : title,
    url,
    marks: isPullRequest ? [`#${id}`, title, url] : [title, url],
  };
}

/**
 * The objects of a tool's structured result that can be cited: the result itself when it is one
 * object (a get tool), and the items of its lists (a search).
 */
export function citationCandidates(service: UpstreamService, structured: unknown): { single: Candidate | null; listed: Candidate[] } {
  if (!structured || typeof structured !== "object") return { single: null, listed: [] };
  const record = structured as Record<string, unknown>;
  const single = candidateOf(service, record);
  const listed: Candidate[] = [];
  for (const value of Object.values(record)) {
    if (!Array.isArray(value)) continue;
    for (const item of value)
      if (item && typeof item === "object") {
        const found = candidateOf(service, item as Record<string, unknown>);
        if (found) listed.push(found);
      }
  }
  return { single, listed };
}

/**
 * What an answer cites: every object a get tool returned, and the listed objects the answer names
 * (a search may return twenty issues; the answer used those it mentions). In order of first use,
 * without repeats, at most ten.
 */
export function citationsFor(answer: string, found: { single: Candidate | null; listed: Candidate[] }[]): Citation[] {
  const out = new Map<string, Citation>();
  const text = answer.toLowerCase();
  const add = ({ kind, title, url }: Candidate) => {
    if (!out.has(url) && out.size < MAX_CITATIONS) out.set(url, { kind, title, url });
  };
  for (const { single } of found) if (single) add(single);
  for (const { listed } of found)
    for (const candidate of listed) if (candidate.marks.some((mark) => mentions(text, mark.toLowerCase()))) add(candidate);
  return [...out.values()];
}

/** Whether `text` names `mark` as a whole word (BK-1 is not BK-12). */
function mentions(text: string, mark: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(mark, from);
    if (at === -1) return false;
    const before = text[at - 1];
    const after = text[at + mark.length];
    if (!(before && /[\w-]/.test(before)) && !(after && /[\w]/.test(after))) return true;
    from = at + 1;
  }
}
