import { jiraError } from "../core/errors";
import type { Handler, Router } from "../core/http";
import { activityRoutes } from "./activity.routes";
import { agileRoutes } from "./agile.routes";
import { attachmentRoutes } from "./attachments.routes";
import { dataCenterState, DataCenterMount, type Adapter } from "./dc-kit";
import { peopleAdapters } from "./dc-people.routes";
import { searchAdapters } from "./dc-search.routes";
import { issueRoutes } from "./issues.routes";
import { metaRoutes } from "./meta.routes";
import type { JiraState } from "./model";
import { searchRoutes } from "./search.routes";
import { watcherRoutes } from "./watchers.routes";

/**
 * The Jira Data Center imitation (under its context path, core/datacenter.ts): REST v2 and Agile
 * 1.0 over the flavour's own state, the cloud's routes reused through a `DataCenterMount` with
 * Data Center's differences (dc-search.routes.ts, dc-people.routes.ts) and its attachment servlet.
 */
export function jiraDataCenterRoutes(router: Router, cloudState: () => JiraState): void {
  const state = dataCenterState(cloudState);
  // Attachment bytes come from `/secure/attachment/{id}/{filename}` (the `content` of an attachment's JSON), not from REST.
  let content: Handler | undefined;
  const attachments: Record<string, Adapter> = {
    "GET /rest/api/2/attachment/content/:id": (cloud) => {
      content = cloud;
      return null;
    },
  };
  const mount = new DataCenterMount(router, { ...searchAdapters(state), ...peopleAdapters(state), ...attachments });
  metaRoutes(mount, state);
  searchRoutes(mount, state);
  issueRoutes(mount, state);
  activityRoutes(mount, state);
  agileRoutes(mount, state);
  watcherRoutes(mount, state);
  attachmentRoutes(mount, state);
  mount.assertAllUsed();
  const served = content;
  mount.own("GET", "/secure/attachment/:id/:filename", (req) => {
    const query = new URLSearchParams(req.query);
    query.set("redirect", "false");
    return served ? served({ ...req, query }) : jiraError(404, "No attachment servlet here.");
  });
}
