import type { ToolCallQuery } from "../../../contract/tool-calls";
import type { NewToolCallRow, ToolCallRow } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import { createBatchWriter, type BatchWriterOptions, type DropReason } from "../../lib/batch-writer";
import type { Clock } from "../../lib/clock";
import { cursorScope, openPosition, sealPosition, type Cursors } from "../../lib/cursor";
import type { Logger } from "../../lib/logger";
import type { ToolCallsRepo } from "./tool-calls.repo";

/** Argument names that carry prose a user wrote (Markdown bodies): kept as their length only. */
const PROSE = new Set(["description", "body", "comment", "content", "text", "message"]);
const MAX_STRING = 200;
/** An argument's name is cut like a value: a client chooses it, of any length. */
const MAX_KEY = 100;
const MAX_KEYS = 50;
const MAX_ITEMS = 20;
/** What the arguments of one row may take, names and values together, in characters (a few more: the entry that crosses it is kept). */
const MAX_ARGUMENT_CHARS = 4_000;
const MAX_OBJECTS = 50;
/** A recorded object's id (an issue key, a page id, workspace/repo#pr) is never longer in earnest. */
const MAX_OBJECT_ID = 128;

/** `text` cut at `max` characters, saying how long it was. */
const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}… [${text.length} characters]` : text);

/**
 * The arguments as the audit keeps them: prose as its length, long strings and names cut, nested
 * values bounded (two levels, 50 names and 20 items each), and the whole within MAX_ARGUMENT_CHARS:
 * what is left out is said, not stored.
 */
export function redactArguments(args: unknown): Record<string, unknown> {
  if (!args || typeof args !== "object" || Array.isArray(args)) return {};
  let room = MAX_ARGUMENT_CHARS;
  const more = (n: number) => `[${n} more left out]`;
  const brief = (key: string, value: unknown, depth: number): unknown => {
    if (typeof value === "string") {
      const kept = PROSE.has(key) ? `[${value.length} characters]` : cut(value, MAX_STRING);
      room -= kept.length;
      return kept;
    }
    if (value === null || typeof value !== "object") {
      room -= String(value).length;
      return value;
    }
    if (depth >= 2) {
      // Its size by count: serialising a client's whole subtree only to say how long it was costs what it saves.
      const kept = Array.isArray(value) ? `[list of ${value.length}]` : `[object of ${Object.keys(value).length}]`;
      room -= kept.length;
      return kept;
    }
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const item of value) {
        if (out.length >= MAX_ITEMS || room <= 0) {
          out.push(more(value.length - out.length));
          break;
        }
        out.push(brief(key, item, depth + 1));
      }
      return out;
    }
    return named(value as Record<string, unknown>, depth + 1);
  };
  const named = (value: Record<string, unknown>, depth: number): Record<string, unknown> => {
    const keys = Object.keys(value);
    const out: [string, unknown][] = [];
    for (const key of keys) {
      if (out.length >= MAX_KEYS || room <= 0) {
        out.push(["…", more(keys.length - out.length)]);
        break;
      }
      const name = cut(key, MAX_KEY);
      room -= name.length;
      out.push([name, brief(key, value[key], depth)]);
    }
    // fromEntries: a name such as __proto__ stays an own property.
    return Object.fromEntries(out);
  };
  return named(args as Record<string, unknown>, 0);
}

/**
 * The upstream objects a call named or got back: Jira issue keys (`sprint:<id>`, `board:<id>`), Confluence `page:<id>`,
 * Bitbucket `workspace/repo` and `workspace/repo#<pr>`. Bounded.
 */
export function objectsOf(
  service: "jira" | "confluence" | "bitbucket",
  args: Record<string, unknown>,
  structured: unknown,
  defaultWorkspace: string | null,
): string[] {
  const kept = new Set<string>();
  // Each id cut, and no more than MAX_OBJECTS of them (the first ones named: what a call named itself comes first).
  const out = { add: (id: string) => void (kept.size < MAX_OBJECTS && kept.add(cut(id, MAX_OBJECT_ID))) };
  const s = (structured ?? {}) as Record<string, unknown>;
  const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : null);
  const each = (list: unknown, pick: (item: Record<string, unknown>) => string | null) => {
    if (Array.isArray(list))
      for (const item of list)
        if (item && typeof item === "object") {
          const v = pick(item as Record<string, unknown>);
          if (v) out.add(v);
        }
  };
  if (service === "jira") {
    for (const v of [args.issueKey, args.parentKey, args.epicKey, s.key]) if (str(v)) out.add(str(v)!.toUpperCase());
    if (Array.isArray(args.issueKeys)) for (const v of args.issueKeys) if (str(v)) out.add(str(v)!.toUpperCase());
    // Sprints and boards by id (the agile tools), before the issues listed, which the bound may cut.
    for (const v of [args.sprintId, s.sprintId]) if (str(v)) out.add(`sprint:${str(v)}`);
    if (str(args.boardId)) out.add(`board:${str(args.boardId)}`);
    each(s.issues, (i) => str(i.key));
    each(s.moved, (i) => str(i.key));
    each(s.created, (i) => str(i.key));
  } else if (service === "confluence") {
    // A move's target page and the page a comment or attachment tool answers for count too.
    for (const v of [args.pageId, args.targetId, s.id, s.pageId]) if (str(v)) out.add(`page:${str(v)}`);
    each(s.results, (r) => (str(r.id) ? `page:${str(r.id)}` : null));
  } else {
    const workspace = str(s.workspace) ?? str(args.workspace) ?? defaultWorkspace;
    // A repository argument is a slug in the configured workspace, or already workspace/slug.
    const given = str(args.repository);
    const repository = given?.includes("/") ? given : workspace && given ? `${workspace}/${given}` : null;
    if (repository) out.add(str(args.pullRequestId) ? `${repository}#${str(args.pullRequestId)}` : repository);
    if (workspace) each(s.repositories, (r) => (str(r.slug) ? `${workspace}/${str(r.slug)}` : null));
  }
  return [...kept];
}

export interface ToolCallRecord {
  clientId: string;
  userId: string | null;
  tool: string;
  arguments: Record<string, unknown>;
  error: string | null;
  durationMs: number;
  objects: string[];
  requestId: string | null;
  /** Whom it acted as upstream: "shared" or the person's account id (issue 27); null when nothing was reached. */
  upstreamIdentity?: string | null;
}

const badCursor = () =>
  new AppError("validation_failed", "before must be the nextCursor of a previous page", {
    fields: { before: "before must be the nextCursor of a previous page" },
  });

/** Issue 11 item 5: every MCP tool call, recorded in batches off the request path, read newest first. */
export function createToolCallsService(
  deps: {
    repo: ToolCallsRepo;
    clock: Clock;
    log: Logger;
    cursors: Cursors;
    onDropped?: (reason: DropReason, rows: number) => void;
  } & BatchWriterOptions,
) {
  const writer = createBatchWriter<NewToolCallRow>({ ...deps, what: "tool-call audit", insertMany: (rows) => deps.repo.insertMany(rows) });
  return {
    record(call: ToolCallRecord): void {
      writer.add({
        at: deps.clock.now(),
        clientId: call.clientId.slice(0, 300),
        userId: call.userId,
        tool: call.tool.slice(0, 100),
        arguments: call.arguments,
        outcome: call.error === null ? "ok" : "error",
        error: call.error === null ? null : call.error.slice(0, 1000),
        durationMs: call.durationMs,
        objects: call.objects,
        requestId: call.requestId,
        upstreamIdentity: call.upstreamIdentity ?? null,
      });
    },
    /** A page, newest first (tool-calls.presenter shapes it), and the cursor of the next one (null on the last). */
    async list(q: ToolCallQuery): Promise<{ rows: ToolCallRow[]; nextCursor: string | null }> {
      // A cursor opens only for the filters it was given with (lib/cursor.ts).
      const scope = cursorScope("tool-calls", { tool: q.tool, clientId: q.clientId, outcome: q.outcome });
      const rows = await deps.repo.list({
        limit: q.limit + 1,
        before: q.before ? openPosition(deps.cursors, scope, q.before, badCursor) : undefined,
        tool: q.tool,
        clientId: q.clientId,
        outcome: q.outcome,
      });
      const page = rows.slice(0, q.limit);
      return { rows: page, nextCursor: rows.length > q.limit ? sealPosition(deps.cursors, scope, page.at(-1)!) : null };
    },
    /** The tool call a request made (a log entry's detail), or null. */
    async forRequest(requestId: string): Promise<ToolCallRow | null> {
      const row = await deps.repo.byRequestId(requestId);
      return row ?? null;
    },
    flush: writer.flush,
    close: writer.close,
    prune: (retentionDays: number) => deps.repo.pruneBefore(new Date(deps.clock.now().getTime() - retentionDays * 86_400_000)),
  };
}

export type ToolCallsService = ReturnType<typeof createToolCallsService>;
