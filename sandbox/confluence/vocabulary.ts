import type { User } from "./types";

/** Word lists the seed draws page titles, bodies and labels from. */

export const USERS: User[] = [
  { accountId: "5b10ac8d82e05b22cc7d4ef5", displayName: "Demo Admin", email: "demo@bridgekeeper.test" },
  { accountId: "5b10a2844c20165700ede21g", displayName: "Alana Grant", email: "alana.grant@bridgekeeper.test" },
  { accountId: "5c3e8f1a9b2d4e0012a7f3c1", displayName: "Marcus Okafor", email: "marcus.okafor@bridgekeeper.test" },
  { accountId: "5d6f7a8b9c0d1e2f3a4b5c6d", displayName: "Priya Raman", email: "priya.raman@bridgekeeper.test" },
  { accountId: "60a1b2c3d4e5f60718293a4b", displayName: "Tomás Herrera", email: "tomas.herrera@bridgekeeper.test" },
  { accountId: "712020:4f9c1e2a-7b3d-4c8e-9a1f-2d5e6b7c8a90", displayName: "Yuki Tanaka", email: "yuki.tanaka@bridgekeeper.test" },
];

export interface SectionPlan {
  title: string;
  label: string;
  templates: string[];
}

export interface SpacePlan {
  key: string;
  name: string;
  description: string;
  subjects: string[];
  labels: string[];
  sections: SectionPlan[];
}

const ENG_SUBJECTS = [
  "billing service",
  "search indexer",
  "auth gateway",
  "notification worker",
  "payments API",
  "data pipeline",
  "mobile app",
  "web client",
  "reporting jobs",
  "feature flag service",
  "CI pipeline",
  "GraphQL gateway",
  "event bus",
  "image resizer",
  "webhook dispatcher",
  "session store",
];
const OPS_SUBJECTS = [
  "Kubernetes cluster",
  "PostgreSQL cluster",
  "Redis cache",
  "Kafka brokers",
  "CDN",
  "load balancers",
  "VPN",
  "DNS zones",
  "backup vault",
  "log pipeline",
  "metrics stack",
  "edge proxies",
  "object storage",
  "secrets manager",
];
const PROD_SUBJECTS = [
  "bulk export",
  "dark mode",
  "SSO onboarding",
  "usage analytics",
  "team workspaces",
  "mobile offline mode",
  "smart notifications",
  "audit log",
  "billing portal",
  "public API v3",
  "custom fields",
  "AI summaries",
];
const HR_SUBJECTS = [
  "software engineers",
  "product managers",
  "designers",
  "support specialists",
  "SREs",
  "data analysts",
  "engineering managers",
  "sales engineers",
];

export const SPACE_PLANS: SpacePlan[] = [
  {
    key: "ENG",
    name: "Engineering",
    description: "Architecture, runbooks, how-to guides and decision records for the engineering team.",
    subjects: ENG_SUBJECTS,
    labels: ["backend", "frontend", "api", "kubernetes", "postgres", "security", "performance"],
    sections: [
      {
        title: "Architecture",
        label: "architecture",
        templates: ["Architecture overview: {s}", "Data model of the {s}", "Sequence diagrams for the {s}", "Scaling the {s}"],
      },
      {
        title: "How-to guides",
        label: "how-to",
        templates: [
          "How to deploy the {s}",
          "How to debug the {s} locally",
          "Local development setup for the {s}",
          "How to rotate credentials for the {s}",
        ],
      },
      {
        title: "Decision records",
        label: "adr",
        templates: [
          "ADR-{n}: Split the {s}",
          "ADR-{n}: Cache reads in the {s}",
          "ADR-{n}: Retire the legacy {s}",
          "ADR-{n}: Queue writes to the {s}",
        ],
      },
      {
        title: "API reference",
        label: "api-reference",
        templates: ["{s} API reference", "{s} error codes", "{s} webhooks", "{s} rate limits"],
      },
      {
        title: "Team rituals",
        label: "process",
        templates: [
          "Sprint {n} retrospective",
          "Code review guidelines for the {s}",
          "Tech debt register: {s}",
          "Sprint {n} planning notes",
        ],
      },
    ],
  },
  {
    key: "OPS",
    name: "Operations",
    description: "Runbooks, incident reviews and infrastructure notes for on-call engineers.",
    subjects: OPS_SUBJECTS,
    labels: ["on-call", "infrastructure", "monitoring", "aws", "sev1", "sev2", "capacity"],
    sections: [
      {
        title: "Runbooks",
        label: "runbook",
        templates: ["Runbook: {s} failover", "Runbook: restart the {s}", "Runbook: {s} disk full", "Runbook: {s} certificate renewal"],
      },
      {
        title: "Incident reviews",
        label: "postmortem",
        templates: ["Postmortem {d}: {s} outage", "Postmortem {d}: degraded {s}", "Incident timeline {d}: {s}"],
      },
      { title: "Monitoring", label: "monitoring", templates: ["Dashboards for the {s}", "Alert catalogue: {s}", "SLOs for the {s}"] },
      {
        title: "Change management",
        label: "change",
        templates: ["Change request {n}: upgrade the {s}", "Maintenance window {d}: {s}", "Rollback plan: {s}"],
      },
      {
        title: "Infrastructure",
        label: "infrastructure",
        templates: ["Capacity planning for the {s}", "Backup and restore: {s}", "Cost review: {s}", "Network layout of the {s}"],
      },
    ],
  },
  {
    key: "PROD",
    name: "Product",
    description: "Roadmaps, requirements, research and release notes.",
    subjects: PROD_SUBJECTS,
    labels: ["roadmap", "customer", "q1", "q2", "experiment", "enterprise", "growth"],
    sections: [
      { title: "Roadmap", label: "roadmap", templates: ["Roadmap {q}: {s}", "Themes for {q}", "Bets for {q}: {s}"] },
      {
        title: "Product requirements",
        label: "prd",
        templates: ["PRD: {s}", "Feature brief: {s}", "Acceptance criteria: {s}", "Open questions: {s}"],
      },
      {
        title: "Research",
        label: "research",
        templates: ["Customer interviews: {s}", "Survey results: {s}", "Experiment results: {s}", "Usability test {n}: {s}"],
      },
      { title: "Release notes", label: "release-notes", templates: ["Release notes {v}", "Release {v} highlights", "Known issues in {v}"] },
    ],
  },
  {
    key: "HR",
    name: "People",
    description: "Policies, onboarding, hiring and benefits for everyone at the company.",
    subjects: HR_SUBJECTS,
    labels: ["policy", "benefits", "onboarding", "hiring", "remote", "learning"],
    sections: [
      {
        title: "Policies",
        label: "policy",
        templates: [
          "Travel and expenses policy {y}",
          "Remote work policy {y}",
          "Leave policy {y}",
          "Equipment policy {y}",
          "Code of conduct {y}",
        ],
      },
      {
        title: "Onboarding",
        label: "onboarding",
        templates: ["Onboarding checklist for {s}", "First week plan for {s}", "Buddy programme for {s}"],
      },
      {
        title: "Hiring",
        label: "hiring",
        templates: ["Interview loop for {s}", "Take-home exercise for {s}", "Job description: {s}", "Hiring scorecard for {s}"],
      },
      {
        title: "Career development",
        label: "career",
        templates: ["Career ladder for {s}", "Learning budget {y}", "Performance review guide {y}", "Promotion criteria for {s}"],
      },
    ],
  },
];

export const PARAGRAPHS = [
  "This page describes how the {s} works today and what we expect to change over the next two quarters.",
  "The {s} is owned by the platform team; ask in the team channel before making structural changes.",
  "Most problems with the {s} come from stale configuration, so check the deployed values first.",
  "We measured a p95 latency of {n} ms after the last change, well inside the agreed budget.",
  "Keep this page up to date: link new decisions here and archive anything that no longer applies.",
  "Before you start, make sure you have access to the production dashboards and the deployment pipeline.",
  "The rollout happens in three waves: internal users, ten percent of customers, then everyone.",
  "If anything looks wrong, stop the rollout and page the on-call engineer for the {s}.",
  "Costs grew by {n} percent last quarter, mostly from storage and cross-region traffic.",
  "Customers asked for this repeatedly in interviews; the top request was better visibility into the {s}.",
];

export const BULLETS = [
  "Check the health endpoint of the {s}",
  "Review the error budget for this month",
  "Confirm the change with the owning team",
  "Update the status page if customers are affected",
  "Record the decision and its rationale",
  "Add a follow-up ticket for the clean-up",
  "Verify backups completed in the last 24 hours",
  "Announce the change in the release channel",
];

export const CODE_SNIPPETS: { language: string; code: string }[] = [
  {
    language: "bash",
    code: "kubectl -n production rollout restart deployment/{slug}\nkubectl -n production rollout status deployment/{slug}",
  },
  { language: "sql", code: "SELECT id, status, updated_at\nFROM jobs\nWHERE status = 'failed'\nORDER BY updated_at DESC\nLIMIT 50;" },
  { language: "yaml", code: "service: {slug}\nreplicas: 3\nresources:\n  limits:\n    cpu: 500m\n    memory: 512Mi" },
  {
    language: "javascript",
    code: "const res = await fetch(`/api/{slug}/health`);\nif (!res.ok) throw new Error(`unhealthy: ${res.status}`);",
  },
];

export const VERSION_MESSAGES = [
  "",
  "",
  "",
  "Fixed typos",
  "Updated owners",
  "Added rollback steps",
  "Clarified the scope",
  "Refreshed numbers",
  "Linked the new decision",
];

export const COMMENTS = [
  "Thanks, this is really helpful.",
  "Should we link the dashboard here as well?",
  "I think the numbers in the second table are out of date.",
  "Can we add an example for the failure case?",
  "Done, I updated the section.",
  "+1, let's discuss this in the next sync.",
  "Who owns this going forward?",
];

export const BLOG_TITLES = ["{name} update: week {n}", "What we shipped in {q}", "Lessons from the {s} migration"];
