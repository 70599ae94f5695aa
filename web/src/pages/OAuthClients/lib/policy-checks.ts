import {
  isToolOffered,
  POLICY_OPTIONS_LIMIT,
  unknownToolsMessage,
  type PolicyOptionsDto,
  type PolicyService,
} from "@contract/policy-options";
import type { PolicyFormValues } from "@contract/policy";

/**
 * The policy editor's checks against the live integrations (issue 25 item 5): which keys the
 * integration cannot confirm (a warning: saving is still allowed, the integration may be down or
 * the key new), which tools this server does not have (an error), and how many tools the client
 * ends up with.
 */

export type KeyField = "jiraProjects" | "confluenceSpaces" | "bitbucketRepositories";

const SERVICE_OF: Record<KeyField, PolicyService> = {
  jiraProjects: "jira",
  confluenceSpaces: "confluence",
  bitbucketRepositories: "bitbucket",
};
const NAME: Record<PolicyService, string> = { jira: "Jira", confluence: "Confluence", bitbucket: "Bitbucket" };
const NOUN: Record<KeyField, [string, string]> = {
  jiraProjects: ["project", "projects"],
  confluenceSpaces: ["space", "spaces"],
  bitbucketRepositories: ["repository", "repositories"],
};

/** One entry as the field keeps it: Jira keys in upper case (as the server stores them). */
export const normaliseEntry = (field: KeyField | "disabledTools", entry: string): string =>
  field === "jiraProjects" ? entry.toUpperCase() : entry;

/** Typed or pasted text as entries: separated by commas, spaces or lines. */
export const entriesOf = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

export interface PickOption {
  value: string;
  label: string;
  /** A second line: the project's name, the tool's toolset. */
  hint?: string;
}

/** What a key field's picker offers: the integration's listing. */
export function keyOptions(field: KeyField, options: PolicyOptionsDto | null | undefined): PickOption[] {
  if (!options) return [];
  if (field === "jiraProjects") return options.jira.projects.map((p) => ({ value: p.key, label: p.key, hint: p.name }));
  if (field === "confluenceSpaces") return options.confluence.spaces.map((s) => ({ value: s.key, label: s.key, hint: s.name }));
  return options.bitbucket.repositories.map((r) => ({
    value: r.slug,
    label: r.slug,
    hint: r.fullName === r.slug ? r.name : `${r.fullName} · ${r.name}`,
  }));
}

/** The tool picker's options: every tool, with its toolset and what it does. */
export const toolOptions = (options: PolicyOptionsDto | null | undefined): PickOption[] =>
  (options?.tools ?? []).map((t) => ({ value: t.name, label: t.name, hint: `${t.toolset} · ${t.title}` }));

const listing = (field: KeyField, options: PolicyOptionsDto) =>
  field === "jiraProjects" ? options.jira : field === "confluenceSpaces" ? options.confluence : options.bitbucket;

/** Whether the listing has `entry` (a Bitbucket `workspace/repo` by its full name, a bare `repo` by its slug). */
function confirms(field: KeyField, options: PolicyOptionsDto, entry: string): boolean {
  if (field === "jiraProjects") return options.jira.projects.some((p) => p.key.toUpperCase() === entry.toUpperCase());
  if (field === "confluenceSpaces") return options.confluence.spaces.some((s) => s.key === entry);
  const wanted = entry.toLowerCase();
  // `workspace/*` (a whole workspace or Data Center project) is confirmed by any repository listed in it.
  if (wanted.endsWith("/*")) return options.bitbucket.repositories.some((r) => r.fullName.toLowerCase().startsWith(wanted.slice(0, -1)));
  return options.bitbucket.repositories.some((r) => (wanted.includes("/") ? r.fullName.toLowerCase() : r.slug.toLowerCase()) === wanted);
}

/** The entries of a key field the live listing does not have (none while the listing is unavailable). */
export function unconfirmedKeys(field: KeyField, values: readonly string[], options: PolicyOptionsDto | null | undefined): string[] {
  if (!options || !listing(field, options).available) return [];
  return values.filter((entry) => !confirms(field, options, entry));
}

export interface FieldNote {
  /** "warning": something to look at (amber); "muted": how things stand (grey: not configured is not an alarm). */
  tone: "warning" | "muted";
  text: string;
}

/** The note under a key field, or null when every entry is confirmed. Notes never block saving. */
export function keyFieldNote(field: KeyField, values: readonly string[], options: PolicyOptionsDto | null | undefined): FieldNote | null {
  if (!options) return null;
  const service = SERVICE_OF[field];
  const name = NAME[service];
  const state = listing(field, options);
  if (!state.available) {
    const error = state.error ?? "no answer";
    // Not configured (or switched off) is how things stand; configured but failing is a warning.
    if (!options.services.includes(service)) return { tone: "muted", text: `${error}: keys cannot be checked.` };
    return { tone: "warning", text: `${name} is not reachable (${error}): keys cannot be checked.` };
  }
  const unknown = unconfirmedKeys(field, values, options);
  if (unknown.length === 0) return null;
  const [one, many] = NOUN[field];
  const nouns = unknown.length === 1 ? one : many;
  if (state.truncated)
    return {
      tone: "warning",
      text: `${name} cannot confirm ${unknown.join(", ")}: not among the first ${POLICY_OPTIONS_LIMIT} ${many} it listed.`,
    };
  return {
    tone: "warning",
    text: `${name} cannot confirm ${unknown.join(", ")}: no such ${nouns}, or not visible to the integration's account.`,
  };
}

/** Tools switched off that this server does not have (unknown until the options are loaded). */
export function unknownTools(values: readonly string[], options: PolicyOptionsDto | null | undefined): string[] {
  if (!options) return [];
  const names = new Set(options.tools.map((t) => t.name));
  return values.filter((name) => !names.has(name));
}

/** The error under "Tools switched off" for tools this server does not have, or undefined. */
export function unknownToolsError(values: readonly string[], options: PolicyOptionsDto | null | undefined): string | undefined {
  const unknown = unknownTools(values, options);
  return unknown.length > 0 ? unknownToolsMessage(unknown) : undefined;
}

/**
 * How many tools the client will have at most: those of the integrations on, within its
 * registered scopes (a token may hold fewer), the policy as the form stands, the server's switch
 * for destructive tools. The same rule as the MCP server's tools/list (contract `isToolOffered`).
 */
export function toolCount(
  values: Pick<PolicyFormValues, "readOnly" | "toolsets" | "disabledTools">,
  options: PolicyOptionsDto,
  scopes: readonly string[],
): { offered: number; total: number } {
  const ctx = {
    services: new Set(options.services),
    scopes,
    policy: { readOnly: values.readOnly, toolsets: values.toolsets, disabledTools: values.disabledTools },
    destructive: options.destructiveTools,
  };
  return { offered: options.tools.filter((tool) => isToolOffered(tool, ctx)).length, total: options.tools.length };
}
