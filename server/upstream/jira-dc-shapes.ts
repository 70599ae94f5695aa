import { UpstreamError } from "./errors";

/**
 * What the Jira Data Center client (jira-dc.client.ts) changes between Data Center's REST v2
 * shapes and the Cloud shapes the tools read (jira.client.ts), in both directions.
 *
 * People: Data Center names a user by username (`name`) and key, never by account id (Jira
 * Server/DC REST v2 UserJsonBean: `{self, key, name, emailAddress, avatarUrls, displayName,
 * active, timeZone}`; pycontribs/jira's `_get_user_identifier` is `user.name` off the cloud). Every
 * user the client returns carries `accountId` = its username, so a tool shows and takes the
 * username where it shows and takes an account id on Cloud; and a `{"accountId": x}` a tool puts
 * in a request's user field is sent as Data Center's `{"name": x}`.
 *
 * Rich text: a tool's Markdown travels as a value with `toJSON()` (ADF, Cloud) and `toWiki()` (wiki
 * markup, Data Center; server/mcp/tools/markdown/jira-text.ts), duck-typed here so the upstream
 * layer does not import the tools: the client puts `toWiki()` in its place before sending.
 */

type Json = unknown;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A user as Data Center presents one: a username and a display name, and a key or a `self` naming it by username. */
const isDataCenterUser = (o: Record<string, unknown>): boolean =>
  typeof o.name === "string" &&
  typeof o.displayName === "string" &&
  o.accountId === undefined &&
  (typeof o.key === "string" || (typeof o.self === "string" && /\/user\?(?:username|key)=/.test(o.self)));

/**
 * Gives every Data Center user in an answer its username as `accountId` (in place: the answer is
 * the client's own, freshly parsed). Issues embed users at any depth (fields, comments, work
 * logs, changelogs, attachments, custom user pickers), so the whole answer is walked.
 */
export function withAccountIds<T extends Json>(answer: T): T {
  const walk = (v: unknown, depth: number): void => {
    if (depth > 64 || typeof v !== "object" || v === null) return;
    if (Array.isArray(v)) {
      for (const item of v) walk(item, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (isDataCenterUser(o)) o.accountId = o.name;
    // Own keys of a freshly parsed answer: `for…in` walks them without an array per object.
    for (const key in o) {
      const value = o[key];
      if (typeof value === "object" && value !== null) walk(value, depth + 1);
    }
  };
  walk(answer, 0);
  return answer;
}

/** A request body for Data Center: every rich-text value as its wiki markup. */
export function wikiBody<T extends Json>(body: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v !== "object" || v === null) return v;
    if (typeof (v as { toWiki?: unknown }).toWiki === "function") return (v as { toWiki: () => string }).toWiki();
    if (Array.isArray(v)) return v.map(walk);
    // Anything else that serialises itself (a date) is left to do so.
    if (typeof (v as { toJSON?: unknown }).toJSON === "function") return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
  };
  return walk(body) as T;
}

/** `{"accountId": x}` alone: a user named the Cloud way, which Data Center takes as `{"name": x}`. */
const userRef = (v: unknown): v is { accountId: string } => isObject(v) && typeof v.accountId === "string" && Object.keys(v).length === 1;

/**
 * An issue's `fields` and `update` for Data Center: rich text as wiki markup, and users named by
 * account id (the username, on Data Center) named by `name`, in a field's value, in a list of
 * them (a multi-user picker), or in an `update` operation (`{"set": {"accountId": x}}`).
 */
export function dataCenterIssueBody<T extends { fields?: Record<string, unknown>; update?: Record<string, unknown> }>(change: T): T {
  const users = (v: unknown): unknown => {
    if (userRef(v)) return { name: v.accountId };
    if (Array.isArray(v)) return v.map(users);
    return v;
  };
  const out: Record<string, unknown> = { ...wikiBody(change) };
  if (isObject(out.fields)) out.fields = Object.fromEntries(Object.entries(out.fields).map(([k, v]) => [k, users(v)]));
  if (isObject(out.update))
    out.update = Object.fromEntries(
      Object.entries(out.update).map(([k, ops]) => [
        k,
        Array.isArray(ops)
          ? ops.map((op) => (isObject(op) ? Object.fromEntries(Object.entries(op).map(([o, v]) => [o, users(v)])) : op))
          : ops,
      ]),
    );
  return out as T;
}

/**
 * Data Center's search pages by offset (`startAt`); the client keeps the Cloud signature, whose
 * caller passes back an opaque `nextPageToken`: on Data Center the token is the next offset.
 */
export const offsetToken = (startAt: number): string => `startAt:${startAt}`;

export function offsetOfToken(token: string | undefined): number {
  if (token === undefined) return 0;
  const m = /^startAt:(\d{1,9})$/.exec(token);
  if (!m) throw new UpstreamError("jira", "bad_request", "Jira's page token is not one this server gave: search again from the first page");
  return Number(m[1]);
}
