import { defineModule } from "../core/module";
import { json } from "../core/http";

// Placeholder to be replaced by the full Bitbucket imitation.
export const bitbucketModule = defineModule({
  service: "bitbucket",
  seed: () => ({}),
  routes(router) {
    router.get("/2.0/user", () => json({}));
  },
});
