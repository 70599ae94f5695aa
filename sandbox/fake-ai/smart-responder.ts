import type { Conversation, ConversationMessage, FakeTurn, ScriptedToolCall } from "./types";

/**
 * The answer when no script is set: enough of a model for the browser tests and the demo to show a
 * whole chat turn (a question, a tool call against the sandbox, an answer quoting what the tool
 * found) without a real provider. Rules on keywords, nothing learnt: the same question always gets
 * the same answer.
 */
export function smartTurn(conversation: Conversation): FakeTurn {
  const lastUser = lastUserIndex(conversation.messages);
  const question = lastUser === -1 ? "" : (conversation.messages[lastUser] as { text: string }).text;
  const sinceQuestion = conversation.messages.slice(lastUser + 1);
  const results = sinceQuestion.filter((m): m is Extract<ConversationMessage, { role: "tool-result" }> => m.role === "tool-result");

  // "slowly" in the question paces the streamed answer (a word every SLOW_CHUNK_DELAY_MS): a reply
  // a browser test sees arrive word by word. "until stopped" streams the first word, then holds the
  // rest (at most HOLD_UNTIL_STOPPED_MS) until the client goes away: what a test needs to press Stop
  // mid-reply without racing the reply's end on a busy machine.
  const pace = /\buntil stopped\b/i.test(question)
    ? { chunkDelayMs: SLOW_CHUNK_DELAY_MS, holdAfterFirstPieceMs: HOLD_UNTIL_STOPPED_MS }
    : /\bslowly\b/i.test(question)
      ? { chunkDelayMs: SLOW_CHUNK_DELAY_MS }
      : {};
  if (/system message/i.test(question)) return { text: systemMessageFor(question, conversation) };
  if (results.length > 0) {
    // Pull requests asked for without a repository: the repositories first, then their open pull requests.
    const next = followUp(question, results, new Set(conversation.tools));
    if (next.length > 0) return { toolCalls: next };
    return {
      text: answerFromResults(results.filter((r) => r.name !== REPOSITORIES || results.every((o) => o.name === REPOSITORIES))),
      ...pace,
    };
  }
  if (conversation.tools.length > 0) {
    const call = pickTool(question, new Set(conversation.tools));
    if (call) return { toolCalls: [call] };
  }
  return { text: GREETING, ...pace };
}

/** The pause between two words of an answer to a question saying "slowly". */
export const SLOW_CHUNK_DELAY_MS = 150;
/** How long an answer to a question saying "until stopped" holds after its first word, at most. */
export const HOLD_UNTIL_STOPPED_MS = 60_000;

const GREETING = "Hello! I can look things up in Jira issues, Confluence pages and Bitbucket repositories. What would you like to know?";

function lastUserIndex(messages: ConversationMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "user") return i;
  return -1;
}

/** A tool for the question, when the question names its subject and that tool is on offer. */
function pickTool(question: string, offered: Set<string>): ScriptedToolCall | null {
  const q = question.toLowerCase();
  const candidates: ScriptedToolCall[] = [];
  if (/\b(issues?|jql|bugs?|tickets?|tasks?|sprints?|jira|backlog)\b/.test(q)) {
    // "Open" means not done, as Jira's status categories say (To Do, In Progress): a Done issue is not open.
    const clauses = [
      "project = BK",
      ...(/\bbugs?\b/.test(q) ? ["issuetype = Bug"] : []),
      ...(OPEN.test(q) ? ["statusCategory != Done"] : []),
    ];
    candidates.push({ name: "jira_search", args: { jql: `${clauses.join(" AND ")} ORDER BY updated DESC`, maxResults: 5 } });
  }
  if (/\b(pages?|docs?|documentation|wiki|confluence|runbooks?|spaces?)\b/.test(q)) {
    const topic = /\babout\s+([\w-]{3,40})/.exec(q)?.[1];
    const cql = topic ? `type = page AND text ~ "${topic}" ORDER BY lastmodified DESC` : "type = page ORDER BY lastmodified DESC";
    candidates.push({ name: "confluence_search", args: { cql, limit: 5 } });
  }
  if (/\b(pull requests?|prs?|merge requests?)\b/.test(q)) {
    // A pull request list needs a repository: one named like a slug (api-gateway) after in/for/of.
    const repo = /\b(?:in|for|of|on)\s+(?:the\s+)?(?:repo(?:sitory)?\s+)?([a-z0-9][\w.-]*-[\w.-]+|[\w.-]+\/[\w.-]+)/.exec(q)?.[1];
    if (repo) candidates.push({ name: "bitbucket_list_pull_requests", args: { repository: repo } });
    // Without one, the repositories first (followUp then asks each for its pull requests).
    candidates.push({ name: REPOSITORIES, args: { maxResults: PR_REPOSITORIES } });
  }
  if (/\b(repos?|repositor(?:y|ies)|bitbucket|code ?base|commits?|branch(?:es)?)\b/.test(q)) {
    candidates.push({ name: "bitbucket_list_repositories", args: { maxResults: 10 } });
  }
  return candidates.find((c) => offered.has(c.name)) ?? null;
}

const OPEN = /\b(open|unresolved|outstanding|not done|in progress)\b/;
const REPOSITORIES = "bitbucket_list_repositories";
/** How many of the most recently changed repositories a question about pull requests looks in. */
const PR_REPOSITORIES = 5;

/**
 * The next tool calls after some results, when the question needs more than they gave: pull
 * requests asked for without a repository were answered with the repositories, so each (the most
 * recently changed first) is asked for its open pull requests, once.
 */
function followUp(
  question: string,
  results: Extract<ConversationMessage, { role: "tool-result" }>[],
  offered: Set<string>,
): ScriptedToolCall[] {
  if (!/\b(pull requests?|prs?|merge requests?)\b/i.test(question) || !offered.has("bitbucket_list_pull_requests")) return [];
  if (results.some((r) => r.name === "bitbucket_list_pull_requests")) return [];
  const listing = results.find((r) => r.name === REPOSITORIES && !r.isError);
  if (!listing) return [];
  const slugs = resultText(listing.text)
    .split("\n")
    .map((l) => /^- ([\w.-]+)/.exec(l)?.[1])
    .filter((slug): slug is string => slug !== undefined)
    .slice(0, PR_REPOSITORIES);
  return slugs.map((repository) => ({ name: "bitbucket_list_pull_requests", args: { repository, state: "OPEN" } }));
}

/** A tool's line with what is meant for the model only (how to page on) left out: an answer is for people. */
const forPeople = (line: string): string => line.replace(/\s*\(more: [^)]*\)/g, "").replace(/^nextCursor: .*$/, "");

/** A short Markdown answer quoting the first line of what the tools returned. */
function answerFromResults(results: Extract<ConversationMessage, { role: "tool-result" }>[]): string {
  const parts = results.map((r) => {
    const first = forPeople(firstLine(resultText(r.text)));
    const label = r.name ? `\`${r.name}\`` : "the tool";
    if (r.isError) return `- ${label} failed: ${first}`;
    // The first few items, as a model would name them (an issue key, a page title): what citations hang on.
    const items = resultText(r.text)
      .split("\n")
      .filter((l) => l.startsWith("- "))
      .slice(0, 3)
      .map(forPeople)
      .map((l) => `  ${l.length > 160 ? `${l.slice(0, 159)}…` : l}`);
    return [`- ${label}: ${first}`, ...items].join("\n");
  });
  return [`Here is what I found:`, "", ...parts, "", `Ask me to dig into any of these.`].join("\n");
}

/**
 * A tool result as the model reads it: plain text, or JSON (an MCP result's `content` texts, or
 * the value itself).
 */
function resultText(raw: string): string {
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value === "string") return value;
    if (value && typeof value === "object" && Array.isArray((value as { content?: unknown }).content)) {
      const texts = (value as { content: { type?: string; text?: string }[] }).content
        .filter((c) => c.type === "text" && typeof c.text === "string")
        .map((c) => c.text);
      if (texts.length > 0) return texts.join("\n");
    }
    return raw;
  } catch {
    return raw;
  }
}

function firstLine(text: string): string {
  const line =
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? "(no result)";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** A plausible system message for the data sources the request names. */
function systemMessageFor(question: string, conversation: Conversation): string {
  const context = `${question}\n${conversation.system ?? ""}\n${conversation.tools.join(" ")}`.toLowerCase();
  const sources = [
    context.includes("jira") ? "Jira issues (search with JQL, cite issue keys)" : null,
    context.includes("confluence") ? "Confluence pages (search with CQL, cite page titles)" : null,
    context.includes("bitbucket") ? "Bitbucket repositories and pull requests" : null,
  ].filter((s): s is string => s !== null);
  const list = sources.length > 0 ? sources : ["the company's Jira, Confluence and Bitbucket data"];
  return [
    "You are an enterprise assistant for the engineering team.",
    `Answer from ${list.join("; ")}, using the tools to look things up before answering.`,
    "Quote what you found, link each item you mention, say so when nothing matched, and never invent issue keys, page titles or repository names.",
    "Be concise: short paragraphs and bullet lists in Markdown.",
  ].join(" ");
}
