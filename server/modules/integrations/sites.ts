import type { Deployment } from "../../../contract/integrations";
import { UpstreamError, type UpstreamService } from "../../upstream/errors";
import { basicAuthorization } from "../../upstream/http";
import type { IntegrationKind } from "./integrations.repo";

/**
 * Where an integration's services live, from its saved settings (issue 28). On Cloud, Jira is the
 * site and Confluence is `/wiki` under it, and Bitbucket is BITBUCKET_API_URL; on Data Center each
 * product is its own server, at the base URL the administrator entered (a context path such as
 * `https://example.com/jira` included).
 */
export interface Site {
  deployment: Deployment;
  /** The Atlassian site, or Jira DC's base URL: what browse links and per-person links are for. */
  instanceUrl: string;
  /** Each service's REST base URL; absent when the integration does not serve it (Confluence left out on Data Center). */
  urls: Partial<Record<UpstreamService, string>>;
}

export const deploymentOf = (settings: Record<string, string>): Deployment =>
  settings.deployment === "datacenter" ? "datacenter" : "cloud";

export function siteOf(kind: IntegrationKind, settings: Record<string, string>, bitbucketApiUrl: string): Site {
  const deployment = deploymentOf(settings);
  if (kind === "bitbucket") {
    const url = deployment === "datacenter" ? (settings.baseUrl ?? "") : bitbucketApiUrl;
    return { deployment, instanceUrl: url, urls: { bitbucket: url } };
  }
  const root = settings.instanceUrl ?? "";
  if (deployment === "cloud") return { deployment, instanceUrl: root, urls: { jira: root, confluence: `${root}/wiki` } };
  return { deployment, instanceUrl: root, urls: { jira: root, ...(settings.confluenceUrl ? { confluence: settings.confluenceUrl } : {}) } };
}

/** A service's base URL on a site, or a not_configured error that says what to enter. */
export function serviceUrl(site: Site, service: UpstreamService): string {
  const url = site.urls[service];
  if (url) return url;
  throw new UpstreamError(
    service,
    "not_configured",
    "Confluence is not configured for this Data Center integration: enter Confluence's base URL on the Configuration screen",
  );
}

/**
 * The shared account's `Authorization`: Cloud takes Basic `email:API token`; Data Center a
 * personal access token (or Bitbucket's HTTP access token) as a bearer token, or Basic
 * `username:password`.
 */
export function sharedAuthorization(kind: IntegrationKind, settings: Record<string, string>, secret: string): string {
  if (deploymentOf(settings) === "datacenter" && settings.authMethod === "token") return `Bearer ${secret}`;
  return basicAuthorization((kind === "bitbucket" ? settings.username : settings.email) ?? "", secret);
}
