import { defineModule } from "../core/module";
import { activityRoutes } from "./activity.routes";
import { agileRoutes } from "./agile.routes";
import { attachmentRoutes } from "./attachments.routes";
import { jiraDataCenterRoutes } from "./dc.routes";
import { nameUsers } from "./dc-users";
import { issueRoutes } from "./issues.routes";
import { metaRoutes } from "./meta.routes";
import type { JiraState } from "./model";
import { jiraPages } from "./pages";
import { searchRoutes } from "./search.routes";
import { seedJira } from "./seed";
import { watcherRoutes } from "./watchers.routes";

/**
 * The Jira Cloud imitation: REST API v3 (ADF bodies) and v2 (wiki markup) from one implementation,
 * plus Jira Software Agile 1.0, over seeded deterministic data (3 projects, 500 issues, sprints);
 * and Jira Data Center's REST v2 and Agile 1.0 over its own state (dc.routes.ts).
 */
export const jiraModule = defineModule<JiraState>({
  service: "jira",
  seed(rng, accounts) {
    const state = seedJira(rng, accounts);
    nameUsers(state, accounts);
    return state;
  },
  routes(router, state) {
    metaRoutes(router, state);
    searchRoutes(router, state);
    issueRoutes(router, state);
    activityRoutes(router, state);
    agileRoutes(router, state);
    watcherRoutes(router, state);
    attachmentRoutes(router, state);
  },
  pages: jiraPages,
  dataCenterRoutes: jiraDataCenterRoutes,
});
