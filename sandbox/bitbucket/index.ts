import { defineModule } from "../core/module";
import { accountRoutes } from "./account.routes";
import type { BitbucketState } from "./model";
import { bitbucketPages } from "./pages";
import { prActionRoutes } from "./pr-actions.routes";
import { pullRequestRoutes } from "./pullrequests.routes";
import { repoRoutes } from "./repos.routes";
import { reviewRoutes } from "./reviews.routes";
import { searchRoutes } from "./search.routes";
import { seedBitbucket } from "./seed";
import { sourceRoutes } from "./source.routes";

/**
 * The Bitbucket Cloud REST API 2.0 imitation: one workspace (`bridgekeeper`), 3 projects, 30
 * repositories with branches, commits, files and pull requests, all seeded deterministically.
 */
export const bitbucketModule = defineModule<BitbucketState>({
  service: "bitbucket",
  seed: seedBitbucket,
  routes(router, state) {
    accountRoutes(router, state);
    repoRoutes(router, state);
    sourceRoutes(router, state);
    pullRequestRoutes(router, state);
    prActionRoutes(router, state);
    reviewRoutes(router, state);
    searchRoutes(router, state);
  },
  pages: bitbucketPages,
});

export type { BitbucketState } from "./model";
