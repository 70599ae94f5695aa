import { actor } from "./access";
import { bitbucketError } from "../core/errors";
import { json, type Router, type SandboxRequest } from "../core/http";
import { findWorkspace, listReply } from "./common";
import type { BitbucketState } from "./model";
import { isoDate, presentMe, presentMembership, presentProject, presentUser, presentWorkspace } from "./presenters";

/** The user, the workspace, its members and projects. */
export function accountRoutes(router: Router, state: () => BitbucketState): void {
  router.get("/2.0/user", (req) => {
    const s = state();
    return json(presentMe(req.origin, actor(s, req)));
  });

  router.get("/2.0/user/emails", (req) => {
    const s = state();
    const email = req.caller.kind === "person" ? req.caller.person.email : `${s.me.nickname}@bridgekeeper.test`;
    return listReply(req, [email], (address) => ({
      type: "email",
      email: address,
      is_primary: true,
      is_confirmed: true,
      links: { self: { href: `${req.origin}/2.0/user/emails/${address}` } },
    }));
  });

  router.get("/2.0/users/:selected_user", (req) => {
    const s = state();
    const user = s.usersByKey.get(req.params.selected_user ?? "");
    return user ? json(presentUser(req.origin, user)) : bitbucketError(404, `User ${req.params.selected_user ?? ""} not found`);
  });

  // The service account owns the workspace; a person is a member of it.
  const permissions = (req: SandboxRequest, s: BitbucketState) => ({
    type: "workspace_membership",
    permission: req.caller.kind === "service" ? "owner" : "member",
    last_accessed: isoDate(actor(s, req).createdOn),
    added_on: isoDate(s.workspace.createdOn),
    user: presentUser(req.origin, actor(s, req)),
    workspace: presentWorkspace(req.origin, s),
  });
  router.get("/2.0/user/permissions/workspaces", (req) => {
    const s = state();
    return listReply(req, [s], (x) => permissions(req, x));
  });
  router.get("/2.0/user/workspaces", (req) => {
    const s = state();
    return listReply(req, [s], (x) => ({
      type: "workspace_access",
      administrator: req.caller.kind === "service",
      workspace: { type: "workspace_base", uuid: x.workspace.uuid, slug: x.workspace.slug, links: presentWorkspace(req.origin, x).links },
    }));
  });
  router.get("/2.0/workspaces", (req) => {
    const s = state();
    return listReply(req, [s], (x) => presentWorkspace(req.origin, x));
  });

  router.get("/2.0/workspaces/:workspace", (req) => {
    const s = state();
    return findWorkspace(s, req.params.workspace) ?? json(presentWorkspace(req.origin, s));
  });

  router.get("/2.0/workspaces/:workspace/members", (req) => {
    const s = state();
    return (
      findWorkspace(s, req.params.workspace) ?? listReply(req, s.users, (u) => presentMembership(req.origin, s, u), { defaultPagelen: 50 })
    );
  });

  router.get("/2.0/workspaces/:workspace/members/:member", (req) => {
    const s = state();
    const missing = findWorkspace(s, req.params.workspace);
    if (missing) return missing;
    const user = s.usersByKey.get(req.params.member ?? "");
    return user
      ? json(presentMembership(req.origin, s, user))
      : bitbucketError(404, `${req.params.member ?? ""} is not a member of this workspace`);
  });

  router.get("/2.0/workspaces/:workspace/projects", (req) => {
    const s = state();
    return findWorkspace(s, req.params.workspace) ?? listReply(req, s.projects, (p) => presentProject(req.origin, s, p));
  });

  router.get("/2.0/workspaces/:workspace/projects/:project_key", (req) => {
    const s = state();
    const missing = findWorkspace(s, req.params.workspace);
    if (missing) return missing;
    const project = s.projectsByKey.get((req.params.project_key ?? "").toUpperCase());
    return project
      ? json(presentProject(req.origin, s, project))
      : bitbucketError(404, `Project ${req.params.project_key ?? ""} not found`);
  });
}
