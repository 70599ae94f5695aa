import { describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS } from "../../../contract/policy";
import { mcpRigForFile, modernRpc, rpc, type McpRig } from "../mcp.test-rig";
import { TOOLS } from "./catalogue";

// @pglite-only: a tools/list of the sandbox-configured server; the database holds only the token.

/**
 * The tool surface a client nobody restricted gets (the default toolsets, every integration
 * configured) is read into a model's context on every conversation: issue 26 item 9 holds it to
 * 16,000 characters of JSON, as a client receives it (the JSON-RPC result of tools/list, in both
 * protocol eras), so that a new tool or a longer description has to find its room.
 */
const MAX_DEFAULT_TOOLS_LIST = 16_000;

describe("the default tools/list", () => {
  let rig: McpRig;
  mcpRigForFile((r) => (rig = r));

  it(`is at most ${MAX_DEFAULT_TOOLS_LIST} characters of JSON, and still lists every default tool`, async () => {
    const token = await rig.token();
    const modern = await modernRpc(rig.baseUrl, token, "tools/list");
    const classic = await rpc(
      rig.baseUrl,
      token,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { "mcp-protocol-version": "2025-11-25" },
    );
    const expected = TOOLS.filter((t) => DEFAULT_TOOLSETS.includes(t.toolset)).map((t) => t.name);
    for (const answer of [modern, classic]) {
      const tools = answer.json.result.tools as { name: string; description: string }[];
      expect(tools.map((t) => t.name)).toEqual(expected);
      expect(JSON.stringify(answer.json.result).length).toBeLessThanOrEqual(MAX_DEFAULT_TOOLS_LIST);
    }
  });
});
