import { describe, expect, it } from "vitest";
import { OPEN_POLICY, type ClientPolicy } from "../../../contract/policy";
import { runTool } from "./call-tool";
import { toolByName } from "./catalogue";
import { enforceReaches, valuesAt } from "./governance";
import type { ToolContext } from "./tool";

/**
 * The one step before a tool runs (governance.ts): the values it reads from a tool's declared
 * reaches, and the order of a page's check, which must learn the page's space without its body.
 * The Confluence client is a recorder here, so the order of the reads is what is asserted; the
 * catalogue matrix and policy tests prove the same rules against the sandbox.
 */
describe("governance", () => {
  it("reads a reach's values from the arguments: plain, in each item of a list, each string of a list; absent ones skipped", () => {
    expect(valuesAt({ issueKey: "BK-1" }, "issueKey")).toEqual(["BK-1"]);
    expect(valuesAt({ issueKey: undefined }, "issueKey")).toEqual([]);
    expect(valuesAt({ issues: [{ projectKey: "BK" }, { projectKey: "OPS", parentKey: "BK-2" }] }, "issues[].projectKey")).toEqual([
      "BK",
      "OPS",
    ]);
    expect(valuesAt({ issues: [{ projectKey: "BK" }, { parentKey: "BK-2" }] }, "issues[].parentKey")).toEqual(["BK-2"]);
    expect(valuesAt({ issueKeys: ["BK-1", "BK-2"] }, "issueKeys[]")).toEqual(["BK-1", "BK-2"]);
    expect(valuesAt({ assigneeAccountId: null }, "assigneeAccountId")).toEqual([]);
  });

  describe("a Confluence page under a space list", () => {
    const page = toolByName("confluence_get_page")!;
    const contextWith = (policy: Partial<ClientPolicy>) => {
      const reads: unknown[][] = [];
      const confluence = {
        getPage: async (id: string, format: string | null) => (
          reads.push(["page", id, format]),
          { id, title: "Runbook", spaceId: "98306", version: { number: 3 }, body: { storage: { value: "<p>secret</p>" } } }
        ),
        space: async (id: string) => (reads.push(["space", id]), { id, key: "OPS" }),
      };
      const ctx = {
        clients: { confluence },
        policy: { ...OPEN_POLICY, ...policy },
        atlassianUrl: null,
        bitbucketWorkspace: null,
      } as unknown as ToolContext;
      return { ctx, reads };
    };

    it("is placed by the page without its body, and one outside is refused before its body is read", async () => {
      const { ctx, reads } = contextWith({ confluenceSpaces: ["ENG"] });
      await expect(enforceReaches(page, { pageId: "1081346", maxLength: 20_000 }, ctx)).rejects.toThrow(
        /^This client may not use the Confluence space OPS: an administrator limited it to ENG\./,
      );
      expect(reads).toEqual([
        ["page", "1081346", null],
        ["space", "98306"],
      ]);
      const refused = await runTool(page, { pageId: "1081346", maxLength: 20_000 }, ctx);
      expect(refused.isError).toBe(true);
      expect(reads.filter(([, , format]) => format !== null && format !== undefined)).toEqual([]);
    });

    it("inside the list, the body is read after the check; without a list, nothing is read to check", async () => {
      const limited = contextWith({ confluenceSpaces: ["OPS"] });
      expect((await runTool(page, { pageId: "1081346", maxLength: 20_000 }, limited.ctx)).isError).toBeFalsy();
      expect(limited.reads).toEqual([
        ["page", "1081346", null],
        ["space", "98306"],
        ["page", "1081346", "storage"],
      ]);
      const open = contextWith({});
      expect((await runTool(page, { pageId: "1081346", maxLength: 20_000 }, open.ctx)).isError).toBeFalsy();
      expect(open.reads).toEqual([["page", "1081346", "storage"]]);
    });
  });
});
