import { json, noContent } from "../core/http";
import type { Reply, Router, SandboxRequest } from "../core/http";
import { actorId, spaceVisible, visibleContent, visibleSpaces } from "./access";
import { CqlError, parseCql, runCql } from "./cql";
import type { CqlQuery } from "./cql";
import {
  dcBadRequest,
  dcBase,
  dcError,
  dcFind,
  dcLimitCap,
  dcNotFound,
  dcPage,
  dcSpaceNotFound,
  dcWebui,
  findUser,
  isRecord,
  presentDcUser,
  str,
} from "./dc-common";
import { presentDcContent, presentDcLabel, presentDcSpace } from "./dc-presenters";
import { friendlyDate, parseExpand } from "./links";
import { excerptOf } from "./render";
import { makeLabel } from "./store";
import type { ConfluenceState, Content } from "./types";
import { lastModified } from "./types";

/**
 * Confluence Data Center's spaces, users, labels and CQL search (`/rest/api/search` with excerpts,
 * `/rest/api/content/search` with content), paged by `start`/`limit` within DC's caps, and the
 * application-links manifest a connection test reads the product and its version from.
 */

/** The version the imitated Confluence Data Center reports (its manifest; the build number is the sandbox's). */
export const DC_CONFLUENCE_VERSION = "9.2.1";
const DC_BUILD_NUMBER = 9_207;

/** The matched words wrapped as DC's default `excerpt=highlight` strategy marks them. */
function highlight(text: string, words: readonly string[]): string {
  const wanted = words.filter((w) => w.length > 0).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (wanted.length === 0) return text;
  // The whole word that starts with a term, as a stemming index matches it ("deploy" marks "deployment").
  return text.replace(new RegExp(`(?<![\\p{L}\\p{N}])((?:${wanted.join("|")})[\\p{L}\\p{N}]*)`, "giu"), "@@@hl@@@$1@@@endhl@@@");
}

/** The matching content, in the query's order, that the caller may see; or the 400 DC answers for bad CQL. */
function matching(req: SandboxRequest, state: ConfluenceState): { all: Content[]; query: CqlQuery } | Reply {
  const cql = req.query.get("cql");
  if (cql === null || cql.trim() === "") return dcBadRequest("CQL query parameter is required but was not supplied");
  try {
    const query = parseCql(cql);
    return { query, all: visibleContent(req, runCql(query, { state, currentUserId: actorId(req, state), now: Date.now() })) };
  } catch (err) {
    if (err instanceof CqlError) return dcBadRequest(`Could not parse cql : ${cql}`);
    throw err;
  }
}

function searchResult(req: SandboxRequest, state: ConfluenceState, c: Content, q: CqlQuery, expand: Set<string>): unknown {
  const space = state.spaceByKey.get(c.spaceKey);
  const modified = lastModified(c);
  const strategy = req.query.get("excerpt") ?? "highlight";
  const excerpt = strategy === "none" ? "" : excerptOf(c.plain, q.words);
  return {
    content: presentDcContent(req, state, c, expand),
    title: strategy === "highlight" ? highlight(c.title, q.words) : c.title,
    excerpt: strategy === "highlight" ? highlight(excerpt, q.words) : excerpt,
    url: dcWebui(state, c),
    resultGlobalContainer: space ? { title: space.name, displayUrl: `/display/${space.key}` } : undefined,
    entityType: "content",
    iconCssClass: `aui-icon content-type-${c.type}`,
    lastModified: modified,
    friendlyLastModified: friendlyDate(modified),
    timestamp: Date.parse(modified),
  };
}

function labelsOf(req: SandboxRequest, c: Content): Reply {
  const prefix = req.query.get("prefix");
  const labels = prefix ? c.labels.filter((l) => l.prefix === prefix) : c.labels;
  return dcPage(req, labels, presentDcLabel, { maxLimit: 200 });
}

function addLabels(req: SandboxRequest, state: ConfluenceState, c: Content): Reply {
  const items: unknown[] = Array.isArray(req.body) ? req.body : [req.body];
  const wanted: { prefix: string; name: string }[] = [];
  for (const item of items) {
    const name = isRecord(item) ? str(item.name)?.trim().toLowerCase() : undefined;
    const prefix = (isRecord(item) ? str(item.prefix) : undefined) ?? "global";
    if (!name) return dcBadRequest("A label must have a name");
    if (/[\s:;,.?&[\]()#^*@!]/.test(name))
      return dcBadRequest(`Label '${name}' contains invalid characters: labels cannot contain spaces or any of :;,.?&[]()#^*@!`);
    if (name.length > 255) return dcBadRequest("Labels cannot be longer than 255 characters");
    if (!["global", "my", "team"].includes(prefix)) return dcBadRequest(`Invalid label prefix: ${prefix}`);
    wanted.push({ prefix, name });
  }
  for (const w of wanted)
    if (!c.labels.some((l) => l.name === w.name && l.prefix === w.prefix)) c.labels.push(makeLabel(state, w.name, w.prefix));
  return dcPage(req, c.labels, presentDcLabel, { maxLimit: 200 });
}

/** The application-links manifest: JSON when asked for it, else the XML applinks answers by default. */
function manifest(req: SandboxRequest): Reply {
  const body = {
    id: "8835b6f1-2b7c-3e1d-9a43-5c0d2f6e7a91",
    name: "Confluence",
    typeId: "confluence",
    version: DC_CONFLUENCE_VERSION,
    buildNumber: DC_BUILD_NUMBER,
    applinksVersion: "10.1.6",
    inboundAuthenticationTypes: [
      "com.atlassian.applinks.api.auth.types.BasicAuthenticationProvider",
      "com.atlassian.applinks.api.auth.types.OAuthAuthenticationProvider",
    ],
    outboundAuthenticationTypes: [
      "com.atlassian.applinks.api.auth.types.BasicAuthenticationProvider",
      "com.atlassian.applinks.api.auth.types.OAuthAuthenticationProvider",
    ],
    publicSignup: false,
    url: dcBase(req),
    iconUrl: `${dcBase(req)}/images/logo/confluence-logo.png`,
  };
  if (String(req.headers.accept ?? "").includes("application/json")) return json(body);
  const xml = Object.entries(body)
    .map(([k, v]) => (Array.isArray(v) ? v.map((x) => `<${k}>${x}</${k}>`).join("") : `<${k}>${String(v)}</${k}>`))
    .join("");
  return {
    status: 200,
    text: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><manifest>${xml}</manifest>`,
    contentType: "application/xml",
  };
}

export function dcSearchRoutes(router: Router, state: () => ConfluenceState): void {
  router.get("/rest/api/space", (req) => {
    const st = state();
    const keys = req.query
      .getAll("spaceKey")
      .flatMap((k) => k.split(","))
      .map((k) => k.trim().toUpperCase())
      .filter(Boolean);
    const type = req.query.get("type");
    const spaces = visibleSpaces(req, st.spaces).filter((s) => (keys.length === 0 || keys.includes(s.key)) && (!type || type === "global"));
    const expand = parseExpand(req.query);
    return dcPage(req, spaces, (s) => presentDcSpace(req, st, s, expand), { maxLimit: 500 });
  });

  router.get("/rest/api/space/:spaceKey", (req) => {
    const st = state();
    const space = st.spaceByKey.get(req.params.spaceKey!.toUpperCase());
    if (!space || !spaceVisible(req, space)) return dcSpaceNotFound(req.params.spaceKey!);
    return json(presentDcSpace(req, st, space, parseExpand(req.query), true));
  });

  router.get("/rest/api/user/current", (req) => json(presentDcUser(req, state(), actorId(req, state()))));

  router.get("/rest/api/user", (req) => {
    const st = state();
    const key = req.query.get("key");
    const username = req.query.get("username");
    if (!key && !username) return dcBadRequest("A username or a key must be given");
    const user = findUser(st, { key, username });
    if (!user) return dcError(404, `No user found with ${key ? `key: ${key}` : `username: ${username ?? ""}`}`);
    return json(presentDcUser(req, st, user.accountId));
  });

  router.get("/rest/api/search", (req) => {
    const st = state();
    const found = matching(req, st);
    if (!("all" in found)) return found;
    const expand = parseExpand(req.query);
    const inner = new Set([...expand].flatMap((e) => (e.startsWith("content.") ? [e.slice(8)] : [])));
    return dcPage(req, found.all, (c) => searchResult(req, st, c, found.query, inner), {
      maxLimit: dcLimitCap(expand, 1000),
      extra: { totalSize: found.all.length, cqlQuery: req.query.get("cql"), searchDuration: 4 },
    });
  });

  router.get("/rest/api/content/search", (req) => {
    const st = state();
    const found = matching(req, st);
    if (!("all" in found)) return found;
    const expand = parseExpand(req.query);
    return dcPage(req, found.all, (c) => presentDcContent(req, st, c, expand), { maxLimit: dcLimitCap(expand, 1000) });
  });

  router.get("/rest/api/content/:id/label", (req) => {
    const c = dcFind(state(), req, req.params.id!);
    return c ? labelsOf(req, c) : dcNotFound(req.params.id!);
  });

  router.post("/rest/api/content/:id/label", (req) => {
    const st = state();
    const c = dcFind(st, req, req.params.id!);
    return c ? addLabels(req, st, c) : dcNotFound(req.params.id!);
  });

  const removeLabel = (req: SandboxRequest, name: string | null): Reply => {
    const c = dcFind(state(), req, req.params.id!);
    if (!c) return dcNotFound(req.params.id!);
    const at = name ? c.labels.findIndex((l) => l.name === name.toLowerCase()) : -1;
    if (at < 0) return dcError(404, `Label '${name ?? ""}' is not on content ${c.id}`);
    c.labels.splice(at, 1);
    return noContent();
  };
  router.delete("/rest/api/content/:id/label/:label", (req) => removeLabel(req, req.params.label ?? null));
  router.delete("/rest/api/content/:id/label", (req) => removeLabel(req, req.query.get("name")));

  router.get("/rest/applinks/1.0/manifest", manifest);
}
