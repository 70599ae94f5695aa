import { defineModule } from "../core/module";
import { accountRoutes } from "./account.routes";
import { dcCommentRoutes } from "./dc-comments.routes";
import { dcRoutes } from "./dc-common";
import { dcPullRequestActionRoutes } from "./dc-pr-actions.routes";
import { dcPullRequestRoutes } from "./dc-pullrequests.routes";
import { dcRepoRoutes } from "./dc-repos.routes";
import { dcSearchRoutes } from "./dc-search.routes";
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
 * repositories with branches, commits, files and pull requests, all seeded deterministically; and
 * the same data as Bitbucket Data Center's REST 1.0 answers it (projects PLAT, WEB, DATA and
 * Priya's personal project `~PRIYA.RAMAN`), under the DC context path.
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
  dataCenterRoutes(router, state) {
    const api = dcRoutes(router, state);
    dcRepoRoutes(api, state);
    dcPullRequestRoutes(api, state);
    dcPullRequestActionRoutes(api, state);
    dcCommentRoutes(api, state);
    dcSearchRoutes(api, state);
  },
});

export type { BitbucketState } from "./model";
