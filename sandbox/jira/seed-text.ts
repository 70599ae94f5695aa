/** Word banks for seeded issues: realistic summaries, descriptions and comments per project. */

export const PEOPLE = [
  ["Priya Raman", "Europe/London"],
  ["Marcus Chen", "America/Los_Angeles"],
  ["Elena Petrova", "Europe/Berlin"],
  ["Tomás Alvarez", "Europe/Madrid"],
  ["Hannah Okafor", "Africa/Lagos"],
  ["Jonas Berg", "Europe/Stockholm"],
  ["Aiko Tanaka", "Asia/Tokyo"],
] as const;

export interface ProjectText {
  key: string;
  name: string;
  description: string;
  components: string[];
  subjects: string[];
  epics: string[];
}

export const PROJECT_TEXT: ProjectText[] = [
  {
    key: "BK",
    name: "Bridgekeeper Core",
    description: "The MCP server, the OAuth 2.1 authorization server and the Atlassian connectors.",
    components: ["MCP Server", "OAuth", "Jira Connector", "Confluence Connector", "Audit Log"],
    subjects: [
      "the MCP tool registry",
      "token refresh",
      "the OAuth consent screen",
      "JQL search tool",
      "Confluence page export",
      "the audit trail",
      "rate limit handling",
      "the Bitbucket pull request tool",
      "session revocation",
      "PKCE verification",
      "tool call timeouts",
      "the connector health check",
    ],
    epics: [
      "Multi-tenant connectors",
      "OAuth 2.1 hardening",
      "Tool catalogue v2",
      "Audit and compliance",
      "Rate limit resilience",
      "Streaming responses",
    ],
  },
  {
    key: "OPS",
    name: "Platform Operations",
    description: "Deployment, observability and on-call for the Bridgekeeper platform.",
    components: ["Kubernetes", "Monitoring", "CI/CD", "Database", "Networking"],
    subjects: [
      "the staging cluster",
      "PostgreSQL backups",
      "the Grafana dashboards",
      "log retention",
      "the deploy pipeline",
      "TLS certificate renewal",
      "the alerting rules",
      "node autoscaling",
      "the container registry",
      "secret rotation",
      "the load balancer",
      "disk usage alerts",
    ],
    epics: ["Zero-downtime deploys", "Observability stack", "Disaster recovery", "Cost reduction Q1", "Security baseline"],
  },
  {
    key: "WEB",
    name: "Admin Console",
    description: "The web admin console: users, roles, connections and the audit trail.",
    components: ["Users", "Roles", "Connections", "Design System", "Accessibility"],
    subjects: [
      "the users table",
      "the role editor",
      "the connection wizard",
      "dark mode",
      "the audit trail filters",
      "keyboard navigation",
      "the sign-in page",
      "form validation messages",
      "the settings screen",
      "pagination controls",
      "empty states",
      "toast notifications",
    ],
    epics: ["Console redesign", "Accessibility AA", "Self-service connections", "Role-based access UI", "Onboarding flow"],
  },
];

export const STORY_VERBS = [
  "Allow admins to configure",
  "Let users filter",
  "Show progress for",
  "Support bulk edits in",
  "Add search to",
  "Export data from",
  "Improve the layout of",
  "Add audit events for",
];
export const TASK_VERBS = [
  "Upgrade",
  "Refactor",
  "Document",
  "Add metrics to",
  "Write tests for",
  "Clean up",
  "Automate",
  "Review the configuration of",
];
export const BUG_PATTERNS = [
  "{s} fails with a 500 error after {n} minutes",
  "Race condition in {s} under load",
  "{s} shows stale data after refresh",
  "Memory leak in {s}",
  "{s} times out on large projects",
  "Wrong timezone shown in {s}",
  "Crash when {s} receives an empty response",
  "{s} ignores the retry-after header",
];
export const SUBTASK_VERBS = [
  "Write unit tests",
  "Update the docs",
  "Code review fixes",
  "Add logging",
  "Implement API changes",
  "Update the UI copy",
  "QA on staging",
  "Add a feature flag",
];

export const CONTEXT_SENTENCES = [
  "Customers reported this during the last release review.",
  "This came up in the weekly platform sync and blocks the next milestone.",
  "Support has seen several tickets about this behaviour.",
  "We need this before onboarding the next enterprise customer.",
  "The current behaviour is confusing and undocumented.",
  "Monitoring shows this path is used by most active tenants.",
  "This is a follow-up from the last incident retrospective.",
];

export const CRITERIA = [
  "The change is covered by automated tests",
  "Errors are logged with a correlation id",
  "The behaviour is documented in the README",
  "It works for projects with more than 10,000 issues",
  "The UI shows a clear message when something fails",
  "Existing configurations keep working without changes",
  "Metrics are exported to the dashboard",
];

export const STACK_LINES = [
  "Error: socket hang up\n    at connResetException (node:internal/errors:720:14)\n    at TLSSocket.socketOnEnd (node:_http_client:519:23)",
  "TypeError: Cannot read properties of undefined (reading 'accountId')\n    at presentUser (server/modules/jira/users.ts:42:18)",
  "Error: Query read timeout\n    at Connection.handleTimeout (node_modules/pg/lib/connection.js:118:9)",
];

export const COMMENTS = [
  "I can reproduce this on staging.",
  "Looks good to me, merging after CI passes.",
  "Could we split this into two smaller tickets?",
  "Pushed a fix, please take another look.",
  "This depends on the API change landing first.",
  "Moved to the next sprint, we ran out of time.",
  "Added screenshots from the latest build.",
  "Confirmed fixed in the nightly build.",
  "I'll pair with someone on this tomorrow.",
  "The root cause is a missing index on the table.",
  "Customer confirmed the workaround is fine for now.",
  "Let's discuss this in the refinement meeting.",
];

export const WORKLOG_COMMENTS = ["Investigation", "Implementation", "Code review", "Testing on staging", "Pairing session", "Writing docs"];

export const LABELS = [
  "backend",
  "frontend",
  "security",
  "performance",
  "tech-debt",
  "customer",
  "regression",
  "docs",
  "ux",
  "infra",
  "api",
  "flaky-test",
];
