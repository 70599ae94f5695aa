import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatReply } from "../../../contract/chat";
import type { ToolCallPage } from "../../../contract/tool-calls";
import { startChatRig, type ChatRig } from "../../test/chat-rig";
import { signedInAs } from "../../test/factories";
import type { TestClient } from "../../test/http-client";
import { link, perPerson, sandboxOAuth } from "./accounts.test-kit";

/** Issue 27 item 6: in per-person mode the chat reaches Jira as the signed-in person, and says so when they linked nothing. */
let chat: ChatRig;

beforeAll(async () => {
  chat = await startChatRig(sandboxOAuth);
  await perPerson(chat.rig.admin, chat.rig.sandbox, "atlassian");
});

afterAll(async () => {
  await chat?.fake.close();
  await chat?.rig.t.close();
  await chat?.rig.sandbox.close();
});

/** One chat turn whose model opens BK-1: the tool call's outcome as the chat reports it. */
async function openBk1(person: TestClient): Promise<ChatReply["mcpCalls"][number]> {
  chat.fake.reset();
  chat.fake.script([{ toolCalls: [{ name: "jira_get_issue", args: { issueKey: "BK-1" } }] }, { text: "Done." }]);
  const res = await person.post<ChatReply>("/api/chat/send", {
    message: "Open BK-1",
    providerId: chat.providers.google.id,
    mcpTools: ["jira"],
  });
  expect(res.status, res.text).toBe(200);
  return res.body.mcpCalls[0]!;
}

describe("the chat as the signed-in person", () => {
  it("tells a person with nothing linked to link, then answers as each person's own account", async () => {
    const [priya, marcus] = chat.rig.sandbox.credentials.people;
    const p = await signedInAs(chat.rig.t, ["operator"]);
    const m = await signedInAs(chat.rig.t, ["operator"]);

    const unlinked = await openBk1(p.client);
    expect(unlinked.error).toContain("you have not linked your Atlassian account yet");
    // The model read the same sentence, with the address to link at.
    const told = chat.fake.requests[1]!.conversation!.messages.find((x) => x.role === "tool-result") as { text: string };
    expect(told.text).toContain(`${chat.rig.baseUrl}/account`);

    await link(p.client, chat.rig.sandbox, "atlassian", priya!.accountId);
    await link(m.client, chat.rig.sandbox, "atlassian", marcus!.accountId);
    // Priya may browse BK; Marcus may not: Jira answers him as it answers anyone who may not see it.
    expect(priya!.jiraProjects).toContain("BK");
    expect(marcus!.jiraProjects).not.toContain("BK");
    expect((await openBk1(p.client)).error).toBeNull();
    expect((await openBk1(m.client)).error).toContain("404");

    await chat.rig.t.container.services.toolCalls.flush();
    const audit = (await chat.rig.admin.get<ToolCallPage>("/api/admin/tool-calls?tool=jira_get_issue")).body.items;
    expect(
      audit
        .slice(0, 2)
        .map((c) => c.upstreamIdentity)
        .sort(),
    ).toEqual([priya!.accountId, marcus!.accountId].sort());
  });
});
