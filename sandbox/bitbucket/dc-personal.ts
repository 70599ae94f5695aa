import { Rng, SEED_EPOCH } from "../core/random";
import { baseTree } from "./content";
import type { BitbucketState, Commit, Repo, User } from "./model";
import { uuidOf } from "./seed";

/**
 * Personal projects of the Data Center flavour: on DC every user has a project `~USERNAME` for
 * their own repositories (seen by them and administrators only). The seeded one is Priya's, with a
 * repository of hers. It is added to the DC flavour's state when its routes first run (the Cloud
 * flavour has no personal projects, so the shared seed stays as it was), from an Rng of its own.
 */

export const PERSONAL_OWNER = "priya.raman";
export const PERSONAL_REPO = "oncall-notes";
const HOUR = 3_600_000;

/** The owner of a personal project key (`~PRIYA.RAMAN` → `priya.raman`), or null for a project's key. */
export const personalOwner = (projectKey: string): string | null => (projectKey.startsWith("~") ? projectKey.slice(1).toLowerCase() : null);

export const personalKey = (nickname: string): string => `~${nickname.toUpperCase()}`;

const seeded = new WeakSet<BitbucketState>();

export function ensurePersonalProjects(s: BitbucketState): void {
  if (seeded.has(s)) return;
  seeded.add(s);
  const owner = s.users.find((u) => u.nickname === PERSONAL_OWNER);
  if (!owner || s.reposBySlug.has(PERSONAL_REPO)) return;
  const repo = personalRepo(owner);
  s.repos.push(repo);
  s.reposBySlug.set(repo.slug, repo);
}

function personalRepo(owner: User): Repo {
  const rng = new Rng(0x9e15a);
  const repo: Repo = {
    slug: PERSONAL_REPO,
    name: PERSONAL_REPO,
    uuid: uuidOf(rng),
    description: "Priya's on-call notes and the scripts she runs during incidents.",
    language: "python",
    isPrivate: true,
    projectKey: personalKey(owner.nickname),
    createdOn: SEED_EPOCH - 90 * 24 * HOUR,
    updatedOn: SEED_EPOCH - 30 * HOUR,
    size: 48_000,
    hasIssues: false,
    hasWiki: false,
    mainbranch: "main",
    branches: new Map(),
    commits: new Map(),
    pullRequests: new Map(),
    nextPrId: 1,
    trees: new Map(),
    diffs: new Map(),
  };
  const tree = baseTree({
    slug: repo.slug,
    name: "On-call Notes",
    description: repo.description,
    language: "python",
    resource: "incident",
    port: 4100,
  });
  const messages = ["Initial commit", "Note the pager escalation order", "Add the database failover checklist"];
  let parent: string | null = null;
  messages.forEach((message, i) => {
    const c: Commit = {
      hash: rng.hex(40),
      message,
      author: owner,
      date: repo.createdOn + i * 20 * 24 * HOUR,
      parents: parent ? [parent] : [],
      ops:
        i === 0
          ? Object.entries(tree).map(([path, content]) => ({ kind: "add" as const, path, content }))
          : [{ kind: "insert" as const, path: "README.md", after: 4, lines: [`- ${message}.`] }],
    };
    repo.commits.set(c.hash, c);
    parent = c.hash;
  });
  repo.branches.set("main", parent!);
  return repo;
}
