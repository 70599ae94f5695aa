import { jiraError } from "../core/errors";
import { json, noContent, type Router } from "../core/http";
import { both, bodyObject, me, now, withIssue } from "./kit";
import type { Issue, JiraState, RemoteLink } from "./model";
import * as P from "./presenters";
import type { View } from "./presenters";
import { touch } from "./store";
import { isRecord } from "./util";

/** An issue's watchers (accountIds; a POST body is the accountId as a JSON string) and its remote links. */

const NO_USER = "Specified user does not exist or you do not have required permissions";

function presentRemoteLink(v: View, issue: Issue, l: RemoteLink) {
  return {
    id: l.id,
    self: `${v.base}/issue/${issue.key}/remotelink/${l.id}`,
    ...(l.globalId !== null ? { globalId: l.globalId } : {}),
    application: l.application,
    ...(l.relationship !== null ? { relationship: l.relationship } : {}),
    object: { icon: {}, status: { icon: {} }, ...l.object },
  };
}

const text = (value: unknown, max: number): string | null | undefined =>
  value === undefined || value === null ? null : typeof value === "string" && value.length <= max ? value : undefined;

export function watcherRoutes(router: Router, state: () => JiraState): void {
  both(router, state, "get", "/issue/:issueIdOrKey/watchers", (_req, v) =>
    withIssue(_req, v, (issue) =>
      json({
        self: `${v.base}/issue/${issue.key}/watchers`,
        isWatching: issue.watcherIds.includes(me(v)),
        watchCount: issue.watcherIds.length,
        watchers: issue.watcherIds.map((id) => P.userById(v, id)).filter((u) => u !== null),
      }),
    ),
  );

  both(router, state, "post", "/issue/:issueIdOrKey/watchers", (req, v) =>
    withIssue(req, v, (issue) => {
      // The body is the accountId as a JSON string; no body adds the calling user.
      if (req.body !== undefined && typeof req.body !== "string")
        return jiraError(400, "The request body must be the user's accountId as a JSON string.");
      const accountId = req.body === undefined || req.body === "" ? me(v) : req.body;
      if (!v.state.usersById.has(accountId)) return jiraError(404, NO_USER);
      if (!issue.watcherIds.includes(accountId)) issue.watcherIds = [...issue.watcherIds, accountId];
      return noContent();
    }),
  );

  both(router, state, "delete", "/issue/:issueIdOrKey/watchers", (req, v) =>
    withIssue(req, v, (issue) => {
      const accountId = req.query.get("accountId");
      if (!accountId) return jiraError(400, "The accountId or username query parameter must be given.");
      if (!v.state.usersById.has(accountId)) return jiraError(404, NO_USER);
      issue.watcherIds = issue.watcherIds.filter((id) => id !== accountId);
      return noContent();
    }),
  );

  both(router, state, "get", "/issue/:issueIdOrKey/remotelink", (req, v) =>
    withIssue(req, v, (issue) => {
      const globalId = req.query.get("globalId");
      if (globalId === null) return json(issue.remoteLinks.map((l) => presentRemoteLink(v, issue, l)));
      const found = issue.remoteLinks.find((l) => l.globalId === globalId);
      return found
        ? json(presentRemoteLink(v, issue, found))
        : jiraError(404, `No remote link with global id '${globalId}' exists on issue ${issue.key}.`);
    }),
  );

  both(router, state, "get", "/issue/:issueIdOrKey/remotelink/:linkId", (req, v) =>
    withIssue(req, v, (issue) => {
      const found = issue.remoteLinks.find((l) => String(l.id) === req.params.linkId);
      return found
        ? json(presentRemoteLink(v, issue, found))
        : jiraError(404, `No remote link with id '${req.params.linkId ?? ""}' exists on issue ${issue.key}.`);
    }),
  );

  /** Creates a link, or with the globalId of an existing one, replaces it (200 instead of 201). */
  both(router, state, "post", "/issue/:issueIdOrKey/remotelink", (req, v) =>
    withIssue(req, v, (issue) => {
      const b = bodyObject(req);
      const o = isRecord(b.object) ? b.object : {};
      const errors: Record<string, string> = {};
      if (typeof o.url !== "string" || !o.url.trim()) errors.url = "'url' is required.";
      else if (o.url.length > 2000 || !/^[a-z][a-z0-9+.-]*:/i.test(o.url)) errors.url = "'url' is not a valid URL.";
      if (typeof o.title !== "string" || !o.title.trim()) errors.title = "'title' is required.";
      else if (o.title.length > 255) errors.title = "'title' must be at most 255 characters.";
      const summary = text(o.summary, 32_000);
      if (summary === undefined) errors.summary = "'summary' must be a string.";
      const globalId = text(b.globalId, 255);
      if (globalId === undefined) errors.globalId = "'globalId' must be a string of at most 255 characters.";
      const relationship = text(b.relationship, 255);
      if (relationship === undefined) errors.relationship = "'relationship' must be a string.";
      if (Object.keys(errors).length) return jiraError(400, "", errors);
      const object: RemoteLink["object"] = {
        url: o.url as string,
        title: o.title as string,
        ...(summary ? { summary } : {}),
        ...(isRecord(o.icon) ? { icon: o.icon } : {}),
        ...(isRecord(o.status) ? { status: o.status } : {}),
      };
      const existing = globalId ? issue.remoteLinks.find((l) => l.globalId === globalId) : undefined;
      const link: RemoteLink = {
        id: existing?.id ?? v.state.next.remoteLink++,
        globalId: globalId ?? null,
        relationship: relationship ?? null,
        application: isRecord(b.application) ? b.application : {},
        object,
      };
      issue.remoteLinks = existing ? issue.remoteLinks.map((l) => (l === existing ? link : l)) : [...issue.remoteLinks, link];
      touch(issue, now(v.state));
      return json({ id: link.id, self: `${v.base}/issue/${issue.key}/remotelink/${link.id}` }, existing ? 200 : 201);
    }),
  );

  both(router, state, "delete", "/issue/:issueIdOrKey/remotelink/:linkId", (req, v) =>
    withIssue(req, v, (issue) => {
      const found = issue.remoteLinks.find((l) => String(l.id) === req.params.linkId);
      if (!found) return jiraError(404, `No remote link with id '${req.params.linkId ?? ""}' exists on issue ${issue.key}.`);
      issue.remoteLinks = issue.remoteLinks.filter((l) => l !== found);
      touch(issue, now(v.state));
      return noContent();
    }),
  );
}
