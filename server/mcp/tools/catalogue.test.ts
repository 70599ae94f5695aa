import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_TOOLSETS, TOOLSET_NAMES, toolsetsOfService } from "../../../contract/policy";
import { TOOLS, TOOLSET_TOOLS } from "./catalogue";

/**
 * The catalogue and contract/policy.ts's toolset table agree: one `<toolset>.tools.ts` file per
 * toolset, holding exactly that toolset's tools, each toolset named after its service (the
 * console's table derives a service's toolsets from the name), and every service with a default
 * toolset (a client nobody restricted can use each configured integration).
 */
describe("the tool catalogue", () => {
  it("has one file per toolset, named after it", () => {
    const files = readdirSync(import.meta.dirname)
      .filter((f) => f.endsWith(".tools.ts"))
      .map((f) => f.slice(0, -".tools.ts".length));
    expect(files.sort()).toEqual([...TOOLSET_NAMES].sort());
  });

  it("puts each tool in the file of its toolset, once, and every toolset has tools", () => {
    for (const toolset of TOOLSET_NAMES) {
      expect(TOOLSET_TOOLS[toolset].length, toolset).toBeGreaterThan(0);
      for (const tool of TOOLSET_TOOLS[toolset]) expect(tool.toolset, tool.name).toBe(toolset);
    }
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
  });

  it("names each toolset after its tools' service, and each service has a default toolset", () => {
    for (const tool of TOOLS) expect(toolsetsOfService(tool.service), tool.name).toContain(tool.toolset);
    for (const service of ["jira", "confluence", "bitbucket"] as const)
      expect(
        DEFAULT_TOOLSETS.some((t) => toolsetsOfService(service).includes(t)),
        service,
      ).toBe(true);
  });
});
