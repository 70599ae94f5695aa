import { defineModule } from "../core/module";
import { json } from "../core/http";

// Placeholder to be replaced by the full Confluence imitation.
export const confluenceModule = defineModule({
  service: "confluence",
  seed: () => ({}),
  routes(router) {
    router.get("/wiki/rest/api/space", () => json({ results: [] }));
  },
});
