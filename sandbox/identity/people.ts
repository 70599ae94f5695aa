/**
 * The people a console user can link and act as: one Atlassian account each (the same account id in
 * Jira, Confluence and Bitbucket, as one Atlassian account is), a personal API token, and what they
 * may browse. The service account (credentials.ts) is none of them: it sees everything.
 */
export interface SandboxPerson {
  /** The Atlassian account id, identical in the three services. */
  accountId: string;
  displayName: string;
  /** `…@bridgekeeper.test`; with `apiToken`, their Basic credentials on every service. */
  email: string;
  /** Their personal Atlassian API token (sandbox only: not a secret here). */
  apiToken: string;
  /** Bitbucket nickname and uuid (`{…}` form); also their username on the Data Center flavour. */
  nickname: string;
  /** Their Data Center personal access token (a bearer token on the dc/ paths). */
  personalAccessToken: string;
  uuid: string;
  /** Jira project keys they may browse. */
  jiraProjects: string[];
  /** Confluence space keys they may see. */
  confluenceSpaces: string[];
  /** Bitbucket repository slugs (in the sandbox's workspace) they may see. */
  bitbucketRepos: string[];
}

/** The sandbox's own Atlassian site, as the API gateway names it (`/ex/jira/{cloudId}/…`). */
export const SANDBOX_CLOUD_ID = "9f3c1b2a-4d5e-4f60-8a7b-1c2d3e4f5a6b";

/** Another site a person may pick at consent: a grant for it does not open the sandbox's site. */
export const OTHER_SITE = { cloudId: "0e8d7c6b-5a49-4382-9170-fedcba987654", url: "https://other-team.atlassian.net", name: "other-team" };

const PLATFORM_REPOS = [
  "api-gateway",
  "auth-service",
  "billing-service",
  "config-service",
  "notification-service",
  "user-service",
  "search-indexer",
  "rate-limiter",
  "event-bus",
  "payments-api",
];
const WEB_REPOS = ["web-frontend", "admin-console", "design-system", "marketing-site", "mobile-bff"];
const WEB_REPOS_REST = ["docs-portal", "checkout-ui", "e2e-tests", "storybook-addons", "i18n-catalog"];
const DATA_REPOS = [
  "etl-pipelines",
  "ml-models",
  "feature-store",
  "analytics-dashboards",
  "data-contracts",
  "report-builder",
  "warehouse-sync",
  "anomaly-detector",
  "recommendation-engine",
  "bridgekeeper-sdk",
];

/**
 * Three seeded people (their Jira account ids are those the default seed has always given them).
 * Priya and Marcus see disjoint things; Elena overlaps both.
 */
export const DEFAULT_PEOPLE: SandboxPerson[] = [
  {
    accountId: "712020:7ee0b909-3140-a316-345f-96850d01b745",
    displayName: "Priya Raman",
    email: "priya.raman@bridgekeeper.test",
    apiToken: "sandbox-token-priya",
    personalAccessToken: "sandbox-dc-pat-priya",
    nickname: "priya.raman",
    uuid: "{a3c1e7f2-5b84-4d09-9e6a-1f2b3c4d5e60}",
    jiraProjects: ["BK", "WEB"],
    confluenceSpaces: ["ENG", "PROD"],
    bitbucketRepos: [...PLATFORM_REPOS, ...WEB_REPOS],
  },
  {
    accountId: "712020:a44050f7-92b5-ecf7-2816-14a2fbf776a7",
    displayName: "Marcus Chen",
    email: "marcus.chen@bridgekeeper.test",
    apiToken: "sandbox-token-marcus",
    personalAccessToken: "sandbox-dc-pat-marcus",
    nickname: "marcus.chen",
    uuid: "{b4d2f8a3-6c95-4e1a-8f7b-2a3c4d5e6f71}",
    jiraProjects: ["OPS"],
    confluenceSpaces: ["OPS", "HR"],
    bitbucketRepos: [...WEB_REPOS_REST, ...DATA_REPOS],
  },
  {
    accountId: "712020:0fdc25cf-00ee-38e3-0238-3bc42b48a889",
    displayName: "Elena Petrova",
    email: "elena.petrova@bridgekeeper.test",
    apiToken: "sandbox-token-elena",
    personalAccessToken: "sandbox-dc-pat-elena",
    nickname: "elena.petrova",
    uuid: "{c669c7d5-25c4-4b99-bc42-36902f89c86e}",
    jiraProjects: ["BK", "OPS", "WEB"],
    confluenceSpaces: ["ENG"],
    bitbucketRepos: ["api-gateway", "web-frontend", "etl-pipelines"],
  },
];

/** The person with that email (case-insensitive), if any. */
export const personByEmail = (people: readonly SandboxPerson[], email: string): SandboxPerson | undefined => {
  const lower = email.toLowerCase();
  return people.find((p) => p.email.toLowerCase() === lower);
};
