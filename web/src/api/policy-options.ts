/**
 * What the policy editor picks from (issue 25 item 5): GET /api/admin/policy-options, the live
 * integrations' projects, spaces and repositories and this server's tools. A down integration is
 * part of the answer (`available: false`), not a failure. The server caches listings a minute; the
 * console asks again each time the dialog opens after that.
 */
import { useQuery } from "@tanstack/react-query";
import type { PolicyOptionsDto } from "@contract/policy-options";
import type { ApiError } from "./client";

export const POLICY_OPTIONS_QUERY_KEY = ["/api/admin/policy-options"] as const;

/** `enabled: false` for a user without oauth-clients.write (it would be a 403). */
export function usePolicyOptions(enabled = true) {
  return useQuery<PolicyOptionsDto | null, ApiError>({ queryKey: POLICY_OPTIONS_QUERY_KEY, enabled, staleTime: 60_000, retry: false });
}
