import { defineModule } from "../core/module";
import { attachmentRoutes } from "./attachments.routes";
import { commentRoutes } from "./comments.routes";
import { contentRoutes } from "./content.routes";
import { dcAttachmentRoutes } from "./dc-attachments.routes";
import { dcContentRoutes } from "./dc-content.routes";
import { dcSearchRoutes } from "./dc-search.routes";
import { confluencePages } from "./pages";
import { seedConfluence } from "./seed";
import type { ConfluenceState } from "./types";
import { v1Routes } from "./v1.routes";
import { v2Routes } from "./v2.routes";

/**
 * The Confluence Cloud imitation: v1 (`/wiki/rest/api`: spaces, content with expansions, CQL search,
 * labels, comments, moves) and v2 (`/wiki/api/v2`: spaces, pages, blog posts, footer and inline comments, attachments) over seeded data;
 * and Confluence Data Center (REST v1 only, `/rest/api` under the DC context path), over the same seed.
 */
export const confluenceModule = defineModule<ConfluenceState>({
  service: "confluence",
  seed: seedConfluence,
  routes(router, state) {
    // Exact paths (content/search) are matched before parameterised ones (content/:id) by the router.
    v1Routes(router, state);
    contentRoutes(router, state);
    v2Routes(router, state);
    commentRoutes(router, state);
    attachmentRoutes(router, state);
  },
  pages: confluencePages,
  dataCenterRoutes(router, state) {
    dcSearchRoutes(router, state);
    dcContentRoutes(router, state);
    dcAttachmentRoutes(router, state);
  },
});
