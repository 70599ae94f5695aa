import type { RepoInfo } from "./templates-shared";
import { typescriptTree } from "./templates-node";
import { goTree, pythonTree } from "./templates-python-go";

export type { RepoInfo } from "./templates-shared";

/** File contents for the seeded repositories (one template per language), commit topics, review comments. */

export function baseTree(r: RepoInfo): Record<string, string> {
  switch (r.language) {
    case "typescript":
      return typescriptTree(r, "ts");
    case "javascript":
      return typescriptTree(r, "js");
    case "python":
      return pythonTree(r);
    case "go":
      return goTree(r);
  }
}

/** A comment line in the file's language, for seeded edits. */
export function commentLine(path: string, text: string): string {
  if (path.endsWith(".py") || path.endsWith(".toml") || path === "Makefile" || path.endsWith(".gitignore")) return `# ${text}`;
  if (path.endsWith(".md")) return `- ${text}`;
  if (path.endsWith(".json")) return "";
  return `// ${text}`;
}

export interface ChangeTopic {
  message: string;
  branch: string;
  note: string;
}

/** Commit and pull request topics: `{r}` is replaced by the repository's resource noun. */
const TOPICS: [string, string, string][] = [
  ["Add retry budget to {r} client", "feature/retry-budget", "Retry at most 3 times with jittered backoff."],
  ["Fix pagination off-by-one in {r} listing", "bugfix/pagination-off-by-one", "Page numbers start at 1, not 0."],
  ["Handle timeouts when fetching {r} records", "bugfix/fetch-timeouts", "Abort slow upstream calls after the request timeout."],
  ["Cache {r} lookups for five minutes", "feature/lookup-cache", "Cache entries expire after the configured TTL."],
  ["Improve validation errors for {r} payloads", "feature/validation-errors", "Return the offending field name in validation errors."],
  ["Bump dependencies", "chore/bump-deps", "Dependencies refreshed for the monthly security review."],
  ["Refactor config loading", "refactor/config-loading", "Configuration is parsed once at startup."],
  ["Add structured logging to {r} handlers", "feature/structured-logging", "Log the request id with every {r} event."],
  ["Document deployment steps", "docs/deployment", "Deployments run through the release pipeline."],
  ["Guard against empty {r} ids", "bugfix/empty-ids", "Reject empty ids before hitting the store."],
  ["Expose {r} metrics endpoint", "feature/metrics-endpoint", "Prometheus metrics are served on /metrics."],
  ["Speed up {r} serialization", "perf/serialization", "Avoid re-encoding cached {r} payloads."],
  ["Add rate limiting to public {r} routes", "feature/rate-limiting", "Public routes allow 100 requests per minute."],
  ["Fix race when invalidating {r} cache", "bugfix/cache-race", "Invalidate before writing to avoid stale reads."],
  ["Support bulk {r} import", "feature/bulk-import", "Bulk imports are processed in batches of 500."],
  ["Tidy up error handling", "refactor/error-handling", "Errors carry a stable code for clients."],
  ["Add audit trail for {r} changes", "feature/audit-trail", "Every {r} change is recorded with its author."],
  ["Upgrade runtime to the current LTS", "chore/runtime-upgrade", "The runtime now tracks the current LTS release."],
];

export function topic(index: number, resource: string): ChangeTopic {
  const [message, branch, note] = TOPICS[index % TOPICS.length]!;
  return { message: message.replaceAll("{r}", resource), branch, note: note.replaceAll("{r}", resource) };
}

export const TOPIC_COUNT = TOPICS.length;

export const REVIEW_COMMENTS = [
  "Looks good to me.",
  "Could we add a test for the failure path?",
  "Nit: this name is a bit vague, maybe `{r}Timeout`?",
  "Is this covered by the existing integration tests?",
  "Thanks, this reads much better now.",
  "Should this be behind a feature flag for the first rollout?",
  "I think this needs a CHANGELOG entry.",
  "Why not reuse the helper in `lib/`?",
  "Can we log at debug level here instead of info?",
  "LGTM once the build is green.",
];
