import { facts, htmlReply, notFoundPage, paragraphs } from "../core/html";
import type { Reply, Router, SandboxRequest } from "../core/http";
import { WORKSPACE } from "./catalog";
import { resolveRevision } from "./git";
import type { BitbucketState, Repo } from "./model";
import { commitDate } from "./presenters";

/**
 * Bitbucket's web pages as plain public HTML, at the `links.html.href` addresses the API returns: a
 * repository (`/WORKSPACE/REPO`), a pull request (`.../pull-requests/ID`, and its comment links
 * under it) and a commit (`.../commits/HASH`). The workspace is literal in the patterns, so
 * nothing else at the root is taken.
 */
export function bitbucketPages(router: Router, state: () => BitbucketState): void {
  const base = `/${WORKSPACE.slug}/:repo`;
  router.get(base, (req) => withRepo(state(), req, (repo) => repoPage(repo)));
  const pullRequest = (req: SandboxRequest) => withRepo(state(), req, (repo) => pullRequestPage(repo, req.params.id ?? ""));
  router.get(`${base}/pull-requests/:id`, pullRequest);
  router.get(`${base}/pull-requests/:id/*rest`, pullRequest);
  router.get(`${base}/commits/:hash`, (req) =>
    withRepo(state(), req, (repo) => {
      const hash = req.params.hash ?? "";
      const commit = /^[0-9a-f]{4,40}$/i.test(hash) ? resolveRevision(repo, hash) : null;
      if (!commit) return notFoundPage(`Commit ${hash} does not exist in ${repo.name}.`);
      const [subject = "", ...rest] = commit.message.split("\n");
      return htmlReply(
        subject,
        facts([
          ["Repository", `${WORKSPACE.slug}/${repo.slug}`],
          ["Commit", commit.hash],
          ["Author", commit.author.displayName],
          ["Date", commitDate(commit.date)],
        ]) + paragraphs(rest.join("\n")),
      );
    }),
  );
}

function withRepo(s: BitbucketState, req: SandboxRequest, page: (repo: Repo) => Reply): Reply {
  const repo = s.reposBySlug.get((req.params.repo ?? "").toLowerCase());
  return repo ? page(repo) : notFoundPage(`Repository ${WORKSPACE.slug}/${req.params.repo ?? ""} does not exist.`);
}

function repoPage(repo: Repo) {
  return htmlReply(
    `${WORKSPACE.slug}/${repo.slug}`,
    facts([
      ["Name", repo.name],
      ["Project", repo.projectKey],
      ["Language", repo.language],
      ["Main branch", repo.mainbranch],
    ]) + paragraphs(repo.description),
  );
}

function pullRequestPage(repo: Repo, id: string) {
  const pr = /^\d+$/.test(id) ? repo.pullRequests.get(Number(id)) : undefined;
  if (!pr) return notFoundPage(`Pull request #${id} does not exist in ${repo.name}.`);
  return htmlReply(
    `#${pr.id}: ${pr.title}`,
    facts([
      ["Repository", `${WORKSPACE.slug}/${repo.slug}`],
      ["State", pr.state],
      ["Author", pr.author.displayName],
      ["Branches", `${pr.source.branch} → ${pr.destination.branch}`],
    ]) + (pr.description.trim() ? paragraphs(pr.description) : "<p><em>No description</em></p>"),
  );
}
