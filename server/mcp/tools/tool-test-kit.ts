/**
 * What the tool tests share, beside the MCP rig (../mcp.test-rig.ts): a client's policy with every
 * toolset on, the sandbox's faults, and the teardown. Test code only (ARCHITECTURE rule 8).
 */
import { TOOLSET_NAMES, type ClientPolicyInput } from "../../../contract/policy";
import type { McpRig } from "../mcp.test-rig";

/**
 * PUT a client's policy with every toolset on (most tools are outside the default ones), and
 * `policy` over it; the admin API's answer, for the test to check.
 */
export const putPolicy = (rig: McpRig, clientId: string, policy: ClientPolicyInput | Record<string, unknown> = {}) =>
  rig.admin.put(`/api/admin/oauth-clients/${clientId}/policy`, { toolsets: TOOLSET_NAMES, ...policy });

/** As putPolicy, and fails the set-up unless the server took it. */
export async function setPolicy(rig: McpRig, clientId: string, policy: ClientPolicyInput | Record<string, unknown> = {}): Promise<void> {
  const res = await putPolicy(rig, clientId, policy);
  if (res.status !== 200) throw new Error(`policy of ${clientId}: ${res.status} ${res.text}`);
}

/** Makes the sandbox fail the requests `spec` matches (sandbox/core: path, status, times, retryAfter …). */
export const sandboxFault = (rig: McpRig, spec: Record<string, unknown>) =>
  fetch(`${rig.sandbox.url}/__sandbox/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(spec),
  });

/** Removes every fault from the sandbox. */
export const clearSandboxFaults = (rig: McpRig) => fetch(`${rig.sandbox.url}/__sandbox/faults`, { method: "DELETE" });

/** Closes what a tool test opened: its MCP clients, then the app and the sandbox (any not opened are skipped). */
export async function closeToolTest(rig: McpRig | undefined, ...clients: ({ close(): Promise<unknown> } | undefined)[]): Promise<void> {
  for (const client of clients) await client?.close();
  await rig?.t.close();
  await rig?.sandbox.close();
}
