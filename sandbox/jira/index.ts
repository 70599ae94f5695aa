import { defineModule } from "../core/module";
import { json } from "../core/http";

// Placeholder to be replaced by the full Jira imitation.
export const jiraModule = defineModule({
  service: "jira",
  seed: () => ({}),
  routes(router) {
    router.get("/rest/api/3/myself", () => json({}));
  },
});
