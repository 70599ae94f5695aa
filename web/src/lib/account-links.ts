/**
 * The logic of acting as the person (issue 27) that several screens share: which of a person's
 * integrations still need a link, what the chat and the consent page say about it, what My
 * accounts learns from the address the service sent the browser back to, and how the request log
 * names the identity a tool call used.
 */
import {
  INTEGRATION_LABELS,
  INTEGRATIONS,
  LINK_ERROR_CODES,
  type Integration,
  type LinkErrorCode,
  type MyAccountsDto,
} from "@contract/accounts";
import type { DataSource } from "@contract/chat";

export type MyIntegration = MyAccountsDto["integrations"][number];

/** What each integration reaches, as people name it. */
export const INTEGRATION_SERVICES: Record<Integration, string> = { atlassian: "Jira and Confluence", bitbucket: "Bitbucket" };

/** "Jira and Confluence answer", "Bitbucket answers": the verb that goes with INTEGRATION_SERVICES. */
export const servicesVerb = (integration: Integration, verb: string): string => (integration === "atlassian" ? verb : `${verb}s`);

/** The integration a chat data source goes through. */
export const SOURCE_INTEGRATION: Record<DataSource, Integration> = { jira: "atlassian", confluence: "atlassian", bitbucket: "bitbucket" };

const SOURCE_NAMES: Record<DataSource, string> = { jira: "Jira", confluence: "Confluence", bitbucket: "Bitbucket" };

/**
 * Whether calls for this person through the integration have no account to use: each person's own
 * account is asked for, the integration is on, and the person has no working link.
 */
export const needsLink = (entry: MyIntegration): boolean =>
  entry.configured && entry.mode === "per-person" && entry.link?.state !== "working";

/** The integrations that need the person's link, in the contract's order (only those of `sources` when given). */
export function integrationsNeedingLink(my: MyAccountsDto | null | undefined, sources?: readonly DataSource[]): MyIntegration[] {
  if (!my) return [];
  const wanted = sources ? new Set(sources.map((source) => SOURCE_INTEGRATION[source])) : null;
  return INTEGRATIONS.flatMap((integration) => {
    const entry = my.integrations.find((e) => e.integration === integration);
    return entry && needsLink(entry) && (!wanted || wanted.has(integration)) ? [entry] : [];
  });
}

/** "Jira", "Jira and Confluence": the chosen sources an integration serves, in their usual order. */
function servicesOf(integration: Integration, sources: readonly DataSource[]): string {
  const names = (["jira", "confluence", "bitbucket"] as const)
    .filter((source) => SOURCE_INTEGRATION[source] === integration && sources.includes(source))
    .map((source) => SOURCE_NAMES[source]);
  return names.length > 0 ? names.join(" and ") : INTEGRATION_SERVICES[integration];
}

/**
 * The chat's warning for one integration that needs the person's link: "Jira and Confluence answer
 * as you: link your Atlassian account on My accounts first." (the text before "My accounts", the
 * link, and the text after, so the page can make the middle a link).
 */
export function chatLinkWarning(entry: MyIntegration, sources: readonly DataSource[]): { before: string; after: string } {
  const services = servicesOf(entry.integration, sources);
  const verb = services.includes(" and ") ? "answer" : "answers";
  const label = INTEGRATION_LABELS[entry.integration];
  return entry.link?.state === "needs-relinking"
    ? { before: `${services} ${verb} as you: your ${label} account needs re-linking on `, after: "." }
    : { before: `${services} ${verb} as you: link your ${label} account on `, after: " first." };
}

/** What the service's callback said, from My accounts' address (`?integration=…&linked=1` or `&link_error=…`). */
export type LinkOutcome = { kind: "linked"; integration: Integration } | { kind: "error"; integration: Integration; code: LinkErrorCode };

const isIntegration = (value: string | null): value is Integration => (INTEGRATIONS as readonly string[]).includes(value ?? "");
const isLinkErrorCode = (value: string | null): value is LinkErrorCode => (LINK_ERROR_CODES as readonly string[]).includes(value ?? "");

/**
 * Reads the outcome from a query string; null when it carries none. An unknown integration says
 * nothing; an unknown error code reads as "upstream" (something went wrong finishing the link).
 */
export function linkOutcomeOf(search: string): LinkOutcome | null {
  const params = new URLSearchParams(search);
  const integration = params.get("integration");
  if (!isIntegration(integration)) return null;
  const error = params.get("link_error");
  if (error !== null) return { kind: "error", integration, code: isLinkErrorCode(error) ? error : "upstream" };
  return params.get("linked") === "1" ? { kind: "linked", integration } : null;
}

/** The query string without the callback's parameters (the rest is kept), with its "?" or empty. */
export function withoutLinkOutcome(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of ["integration", "linked", "link_error"]) params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}

/** The request log's "Acted as": the shared account, or the person's account id. */
export const actedAsText = (upstreamIdentity: string): string => (upstreamIdentity === "shared" ? "Shared account" : upstreamIdentity);
