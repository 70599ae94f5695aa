import { describe, expect, it } from "vitest";
import type { ProductDto } from "@contract/integrations";
import { productBadges } from "./integration-reach";

const jiraDc: ProductDto = { name: "Jira Data Center", version: "10.3.5", deployment: "datacenter" };
const confluenceDc: ProductDto = { name: "Confluence Data Center", version: "9.2.1", deployment: "datacenter" };
const bitbucketDc: ProductDto = { name: "Bitbucket Data Center", version: "9.4.2", deployment: "datacenter" };
const jiraCloud: ProductDto = { name: "Jira Cloud", version: null, deployment: "cloud" };

describe("the product badges of the integration cards (issue 28)", () => {
  it("name each Data Center product with its major and minor version, the full version on hover", () => {
    expect(productBadges([jiraDc, confluenceDc])).toEqual([
      { label: "Jira Data Center 10.3", title: "Jira Data Center 10.3.5" },
      { label: "Confluence Data Center 9.2", title: "Confluence Data Center 9.2.1" },
    ]);
    expect(productBadges([bitbucketDc])).toEqual([{ label: "Bitbucket Data Center 9.4", title: "Bitbucket Data Center 9.4.2" }]);
  });

  it("leave Cloud and what is not known out: a Cloud card looks as it did", () => {
    expect(productBadges([jiraCloud, { name: "Confluence Cloud", version: null, deployment: "cloud" }])).toEqual([]);
    expect(productBadges([null, undefined])).toEqual([]);
    // Confluence left out on Data Center: Jira alone.
    expect(productBadges([jiraDc, null]).map((b) => b.label)).toEqual(["Jira Data Center 10.3"]);
  });

  it("a version without a minor part, or none, is shown as reported", () => {
    expect(productBadges([{ ...jiraDc, version: "11" }])).toEqual([{ label: "Jira Data Center 11", title: "Jira Data Center 11" }]);
    expect(productBadges([{ ...jiraDc, version: null }])).toEqual([{ label: "Jira Data Center", title: "Jira Data Center" }]);
  });
});
