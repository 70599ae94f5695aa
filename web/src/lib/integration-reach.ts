/**
 * The quiet line under an integration's status (issue 25): who it connects as and what that
 * account can see, as the last connection check learned it. The Dashboard's cards and the
 * Configuration screen's cards say it in the same words.
 */
import {
  productLabel,
  type AtlassianReachDto,
  type BitbucketStatusDto,
  type IntegrationAccountDto,
  type ProductDto,
} from "@contract/integrations";
import { formatNumber, formatRelative, plural } from "./format";

/** What a status answer carries of it; an older server's answer may lack the fields. */
type AtlassianReach = Partial<AtlassianReachDto>;
type BitbucketReach = Partial<Pick<BitbucketStatusDto, "account" | "workspaceName" | "repositoryCount">>;

/** "Alice Admin (alice@example.com)": the name, with the email (or Bitbucket's nickname) when known. */
export function accountText(account: IntegrationAccountDto): string {
  const detail = account.email ?? account.nickname;
  return detail && detail !== account.displayName ? `${account.displayName} (${detail})` : account.displayName;
}

/** "1,000+ spaces" when counting stopped at the cap. */
const countOf = (count: number, one: string, many: string, capped = false) =>
  capped ? `${formatNumber(count)}+ ${many}` : plural(count, one, many);

/** Starts the sentence with who it connects as, or with what it sees when the account is not known. */
function sentence(account: IntegrationAccountDto | null | undefined, reach: string | null, verb: string): string | null {
  if (account) return `Connects as ${accountText(account)}${reach ? ` · ${verb}${reach}` : ""}`;
  if (!reach) return null;
  const text = `${verb}${reach}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Connects as Alice Admin (alice@example.com) · sees 4 projects, 3 spaces"; null while nothing is known. */
export function atlassianReachText(s: AtlassianReach): string | null {
  const seen = [
    s.jiraProjectCount != null ? countOf(s.jiraProjectCount, "project", "projects") : null,
    s.confluenceSpaceCount != null ? countOf(s.confluenceSpaceCount, "space", "spaces", s.confluenceSpaceCountCapped === true) : null,
  ].filter((part) => part !== null);
  return sentence(s.account, seen.length > 0 ? seen.join(", ") : null, "sees ");
}

/** "Connects as Bridgekeeper Bot (bridgekeeper-bot) · 12 repositories in Acme"; null while nothing is known. */
export function bitbucketReachText(s: BitbucketReach): string | null {
  const repositories =
    s.repositoryCount != null
      ? `${countOf(s.repositoryCount, "repository", "repositories")}${s.workspaceName ? ` in ${s.workspaceName}` : ""}`
      : null;
  return sentence(s.account, repositories, "");
}

/** "Checked 5m ago", "Checked just now": the spec's relative times inside a sentence. */
export function checkedText(iso: string, now: number = Date.now()): string {
  const relative = formatRelative(iso, now);
  return `Checked ${relative === "Just now" ? "just now" : relative}`;
}

/** A detected product as its badge names it ("Jira Data Center 10.3"), with the full version for its tooltip. */
export interface ProductBadge {
  label: string;
  title: string;
}

/**
 * The Data Center products a connection check detected, each named with its version (issue 28),
 * in the order given, each once. Cloud's are left out: the cards already say Cloud, and it has no
 * version to tell.
 */
export function productBadges(products: readonly (ProductDto | null | undefined)[]): ProductBadge[] {
  const badges: ProductBadge[] = [];
  for (const product of products) {
    if (!product || product.deployment !== "datacenter") continue;
    const label = productLabel(product);
    if (badges.some((badge) => badge.label === label)) continue;
    badges.push({ label, title: product.version ? `${product.name} ${product.version}` : product.name });
  }
  return badges;
}
