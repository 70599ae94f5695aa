import type { Deployment, ProductDto } from "../../../contract/integrations";
import { isUpstreamError, UpstreamError, type UpstreamService } from "../../upstream/errors";
import type { UpstreamHttp, UpstreamTarget } from "../../upstream/http";

/**
 * Which product answers at a configured address, and its version (issue 28: the deployment is
 * detected by the connection test). Each question is one anonymous-friendly GET that both
 * deployments understand or that only Data Center answers:
 * - Jira: `/rest/api/2/serverInfo` (Cloud and DC): `deploymentType` "Cloud", or "Server"/"DataCenter".
 * - Confluence DC: `/rest/applinks/1.0/manifest` as JSON (its `version`); Confluence Cloud is the site's.
 * - Bitbucket DC: `/rest/api/1.0/application-properties` (`version`, `displayName`); Bitbucket Cloud's
 *   API has no such path.
 * A service that answers none of them is not a product we know: the test says so.
 */

interface ServerInfo {
  deploymentType?: string;
  version?: string;
}

const get = <T>(http: UpstreamHttp, service: UpstreamService, target: UpstreamTarget, path: string, timeoutMs?: number) =>
  http.request<T>(service, target, { path, ...(timeoutMs ? { timeoutMs } : {}) }).then((r) => r.data);

export async function detectJira(http: UpstreamHttp, target: UpstreamTarget, timeoutMs?: number): Promise<ProductDto> {
  let info: ServerInfo;
  try {
    info = await get<ServerInfo>(http, "jira", target, "/rest/api/2/serverInfo", timeoutMs);
  } catch (err) {
    throw notAProduct(err, "jira", target.baseUrl);
  }
  if (typeof info !== "object" || info === null || typeof info.deploymentType !== "string") throw notAProduct(null, "jira", target.baseUrl);
  // Jira 9+ self-managed is Data Center ("Server" ended in 2024); an older "Server" is served the same way.
  const deployment: Deployment = info.deploymentType.toLowerCase() === "cloud" ? "cloud" : "datacenter";
  return deployment === "cloud"
    ? { name: "Jira Cloud", version: null, deployment }
    : { name: info.deploymentType === "Server" ? "Jira Server" : "Jira Data Center", version: info.version ?? null, deployment };
}

/** Confluence on Data Center: its version; a manifest that cannot be read leaves the version unknown, never fails the test. */
export async function detectConfluence(
  http: UpstreamHttp,
  target: UpstreamTarget,
  deployment: Deployment,
  timeoutMs?: number,
): Promise<ProductDto> {
  if (deployment === "cloud") return { name: "Confluence Cloud", version: null, deployment };
  const manifest = await http
    .request<{ version?: string; typeId?: string }>("confluence", target, {
      path: "/rest/applinks/1.0/manifest",
      headers: { accept: "application/json" },
      ...(timeoutMs ? { timeoutMs } : {}),
    })
    .then((r) => r.data)
    .catch(() => null);
  return { name: "Confluence Data Center", version: typeof manifest?.version === "string" ? manifest.version : null, deployment };
}

export async function detectBitbucket(http: UpstreamHttp, target: UpstreamTarget, timeoutMs?: number): Promise<ProductDto> {
  const cloud: ProductDto = { name: "Bitbucket Cloud", version: null, deployment: "cloud" };
  let props: { version?: string; displayName?: string } | null;
  try {
    props = await get(http, "bitbucket", target, "/rest/api/1.0/application-properties", timeoutMs);
  } catch (err) {
    // Bitbucket Cloud's API has no application properties: on Cloud, /user is the connection check.
    if (target.deployment !== "datacenter") return cloud;
    throw notAProduct(err, "bitbucket", target.baseUrl);
  }
  if (typeof props !== "object" || props === null || typeof props.version !== "string") {
    if (target.deployment !== "datacenter") return cloud;
    throw notAProduct(null, "bitbucket", target.baseUrl);
  }
  return { name: "Bitbucket Data Center", version: props.version, deployment: "datacenter" };
}

/**
 * The test's sentence for an address that is not the product: unreachable and refused keep
 * their own words (they say what to fix); anything else (a 404, an HTML page, another server)
 * says what was expected there.
 */
function notAProduct(err: unknown, service: "jira" | "bitbucket", url: string): UpstreamError {
  if (isUpstreamError(err) && !err.reachedService) return err;
  const product = service === "jira" ? "Jira" : "Bitbucket Data Center";
  return new UpstreamError(
    service,
    "not_found",
    `No ${product} answers at ${url}: check the base URL (with its context path, such as /${service === "jira" ? "jira" : "bitbucket"})`,
  );
}

/** The test's sentence when the chosen deployment is not the one that answers. */
export const deploymentMismatch = (product: ProductDto, chosen: Deployment): string =>
  `${product.name}${product.version ? ` ${product.version}` : ""} answers at this address, but the integration is set to ${
    chosen === "cloud" ? "Cloud" : "Data Center"
  }: choose ${product.deployment === "cloud" ? "Cloud" : "Data Center"} (or Detect automatically) and save`;
