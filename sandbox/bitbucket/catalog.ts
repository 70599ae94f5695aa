import type { Language } from "./model";

/** The fixed cast of the seeded workspace: people, projects and repositories. */

export const WORKSPACE = { slug: "bridgekeeper", name: "Bridgekeeper" };

export const PEOPLE: [nickname: string, displayName: string][] = [
  ["alice.nguyen", "Alice Nguyen"],
  ["bob.martins", "Bob Martins"],
  ["carla.jensen", "Carla Jensen"],
  ["deepak.rao", "Deepak Rao"],
  ["elena.petrova", "Elena Petrova"],
  ["farid.haddad", "Farid Haddad"],
];

export const PROJECTS: [key: string, name: string, description: string][] = [
  ["PLAT", "Platform", "Core services: gateway, identity, billing and messaging."],
  ["WEB", "Web Experience", "Customer-facing web apps, the design system and the docs."],
  ["DATA", "Data & ML", "Pipelines, models and analytics."],
];

export interface CatalogRepo {
  slug: string;
  project: string;
  language: Language;
  resource: string;
  description: string;
}

export const REPOS: CatalogRepo[] = [
  {
    slug: "api-gateway",
    project: "PLAT",
    language: "typescript",
    resource: "upstream",
    description: "Edge gateway that authenticates and routes public API traffic.",
  },
  {
    slug: "auth-service",
    project: "PLAT",
    language: "go",
    resource: "session",
    description: "Issues and verifies sessions and OAuth tokens.",
  },
  {
    slug: "billing-service",
    project: "PLAT",
    language: "python",
    resource: "invoice",
    description: "Invoices, payment retries and dunning.",
  },
  {
    slug: "config-service",
    project: "PLAT",
    language: "go",
    resource: "setting",
    description: "Central runtime configuration with audit history.",
  },
  {
    slug: "notification-service",
    project: "PLAT",
    language: "typescript",
    resource: "notification",
    description: "Email, SMS and push notifications with templates.",
  },
  {
    slug: "user-service",
    project: "PLAT",
    language: "typescript",
    resource: "user",
    description: "User profiles, preferences and account lifecycle.",
  },
  {
    slug: "search-indexer",
    project: "PLAT",
    language: "python",
    resource: "document",
    description: "Streams changes into the search cluster.",
  },
  { slug: "rate-limiter", project: "PLAT", language: "go", resource: "quota", description: "Distributed token-bucket rate limiting." },
  {
    slug: "event-bus",
    project: "PLAT",
    language: "go",
    resource: "event",
    description: "Thin wrapper around the message broker with schemas.",
  },
  {
    slug: "payments-api",
    project: "PLAT",
    language: "typescript",
    resource: "payment",
    description: "Card and bank payments behind a single API.",
  },
  { slug: "web-frontend", project: "WEB", language: "typescript", resource: "page", description: "The customer web application." },
  {
    slug: "admin-console",
    project: "WEB",
    language: "typescript",
    resource: "tenant",
    description: "Internal console for support and operations.",
  },
  {
    slug: "design-system",
    project: "WEB",
    language: "typescript",
    resource: "component",
    description: "Shared UI components, tokens and guidelines.",
  },
  {
    slug: "marketing-site",
    project: "WEB",
    language: "javascript",
    resource: "campaign",
    description: "Public marketing site and landing pages.",
  },
  {
    slug: "mobile-bff",
    project: "WEB",
    language: "typescript",
    resource: "screen",
    description: "Backend-for-frontend serving the mobile apps.",
  },
  { slug: "docs-portal", project: "WEB", language: "javascript", resource: "article", description: "Developer documentation portal." },
  { slug: "checkout-ui", project: "WEB", language: "typescript", resource: "cart", description: "Checkout flow and cart widgets." },
  {
    slug: "e2e-tests",
    project: "WEB",
    language: "typescript",
    resource: "scenario",
    description: "End-to-end browser tests for the web apps.",
  },
  {
    slug: "storybook-addons",
    project: "WEB",
    language: "javascript",
    resource: "addon",
    description: "Storybook addons used by the design system.",
  },
  {
    slug: "i18n-catalog",
    project: "WEB",
    language: "javascript",
    resource: "translation",
    description: "Translation catalogs and the extraction tooling.",
  },
  { slug: "etl-pipelines", project: "DATA", language: "python", resource: "job", description: "Nightly ETL jobs feeding the warehouse." },
  { slug: "ml-models", project: "DATA", language: "python", resource: "model", description: "Training code and model cards." },
  { slug: "feature-store", project: "DATA", language: "python", resource: "feature", description: "Online and offline feature store." },
  {
    slug: "analytics-dashboards",
    project: "DATA",
    language: "python",
    resource: "dashboard",
    description: "Dashboards as code for product analytics.",
  },
  {
    slug: "data-contracts",
    project: "DATA",
    language: "python",
    resource: "contract",
    description: "Schemas and contracts between producers and consumers.",
  },
  {
    slug: "report-builder",
    project: "DATA",
    language: "python",
    resource: "report",
    description: "Scheduled reports exported to PDF and CSV.",
  },
  {
    slug: "warehouse-sync",
    project: "DATA",
    language: "go",
    resource: "table",
    description: "Incremental sync from operational databases to the warehouse.",
  },
  {
    slug: "anomaly-detector",
    project: "DATA",
    language: "python",
    resource: "signal",
    description: "Detects anomalies in business metrics.",
  },
  {
    slug: "recommendation-engine",
    project: "DATA",
    language: "python",
    resource: "recommendation",
    description: "Ranks recommendations for the storefront.",
  },
  {
    slug: "bridgekeeper-sdk",
    project: "DATA",
    language: "typescript",
    resource: "client",
    description: "TypeScript SDK for the internal data APIs.",
  },
];

/** "api-gateway" → "API Gateway"-like display names. */
export const displayName = (slug: string): string =>
  slug
    .split("-")
    .map((w) =>
      ["api", "ui", "ml", "bff", "etl", "sdk", "i18n", "e2e"].includes(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1),
    )
    .join(" ");
