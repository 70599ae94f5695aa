import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../oauth/oauth.adversarial.helpers";
import { mcpClient, startMcpRig, type McpRig } from "../mcp.test-rig";
import { closeToolTest, putPolicy, sandboxFault } from "./tool-test-kit";

// @pglite-only: the tools' answers come from the sandbox; the database only holds the token and the audit rows (tool-calls and policy tests run on both).

type Client = Awaited<ReturnType<typeof mcpClient>>;

/**
 * The Jira tools that complete the catalogue (issue 11): sprints and epics, watchers and remote
 * links, versions, field metadata and batch create, attachments. Through a real MCP client against
 * the sandbox over HTTP; a second client limited to the OPS project, a third that only reads.
 */
describe("Jira catalogue: sprints, watchers, remote links, schema, batch create, attachments", () => {
  let rig: McpRig;
  let client: Client;
  /** Limited to the OPS project. */
  let ops: Client;
  /** A read-only client (every toolset on). */
  let reader: Client;
  beforeAll(async () => {
    rig = await startMcpRig({ upstream: { maxAttempts: 1 } });
    const set = await putPolicy(rig, rig.client.clientId);
    if (set.status !== 200) throw new Error(`policy: ${set.status}`);
    client = await mcpClient(rig, await rig.token("read write"), "jira-catalogue-test");
    const limited = await createClient(rig, { name: "ops-only" });
    expect((await putPolicy(rig, limited.clientId, { jiraProjects: ["OPS"] })).status).toBe(200);
    ops = await mcpClient(rig, await rig.token("read write", limited), "ops-only");
    const readOnly = await createClient(rig, { name: "read-only" });
    expect((await putPolicy(rig, readOnly.clientId, { readOnly: true })).status).toBe(200);
    reader = await mcpClient(rig, await rig.token("read write", readOnly), "read-only");
  });
  afterAll(() => closeToolTest(rig, client, ops, reader));

  const call = (name: string, args: Record<string, unknown> = {}) => client.call(name, args);
  const fault = (spec: Record<string, unknown>) => sandboxFault(rig, { times: 1, ...spec });
  const sandboxAuth = { authorization: `Basic ${Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64")}` };
  const sandboxGet = async (path: string): Promise<any> => (await fetch(`${rig.sandbox.url}${path}`, { headers: sandboxAuth })).json();
  const newIssue = async (summary: string, projectKey = "BK", extra: Record<string, unknown> = {}) => {
    const res = await call("jira_create_issue", { projectKey, summary, ...extra });
    expect(res.isError, res.text).toBe(false);
    return res.data.key as string;
  };
  const sprintOf = async (key: string): Promise<number | null> =>
    ((await sandboxGet(`/rest/agile/1.0/issue/${key}?fields=summary`)).fields.sprint?.id as number | undefined) ?? null;

  describe("sprints and epics (jira-agile)", () => {
    it("creates a sprint, renames it, starts and completes sprints; refuses bad arguments with field messages", async () => {
      const created = await call("jira_create_sprint", {
        boardId: 3,
        name: "Catalogue sprint",
        goal: "Ship the catalogue",
        startDate: "2026-12-01",
        endDate: "2026-12-14T17:00:00Z",
      });
      expect(created.isError, created.text).toBe(false);
      expect(created.data).toMatchObject({
        name: "Catalogue sprint",
        state: "future",
        goal: "Ship the catalogue",
        boardId: 3,
        start: expect.stringMatching(/^2026-12-01T00:00/),
      });
      const id = created.data.sprintId as number;
      expect(created.text).toMatch(
        new RegExp(
          `^Created sprint ${id} "Catalogue sprint" \\[future\\] on board 3\\n2026-12-01 00:00 → 2026-12-14 17:00\\nGoal: Ship the catalogue$`,
        ),
      );
      const future = await call("jira_list_sprints", { boardId: 3, state: "future", maxResults: 100 });
      expect((future.data.sprints as { id: number }[]).map((s) => s.id)).toContain(id);

      const renamed = await call("jira_update_sprint", { sprintId: id, name: "Catalogue II", goal: "Ship it all" });
      expect(renamed.data).toMatchObject({ sprintId: id, name: "Catalogue II", goal: "Ship it all", state: "future" });
      expect(renamed.text).toMatch(/\(name, goal\)$/);

      const busy = await call("jira_update_sprint", { sprintId: id, state: "active" });
      expect(busy.isError).toBe(true);
      expect(busy.text).toBe(
        "Jira refused the sprint change: This board already has an active sprint. Complete it before starting another one. (See the board's sprints with jira_list_sprints.)",
      );
      const active = (await call("jira_list_sprints", { boardId: 3 })).data.sprints as { id: number }[];
      expect((await call("jira_update_sprint", { sprintId: active[0]!.id, state: "closed" })).data.state).toBe("closed");
      const started = await call("jira_update_sprint", { sprintId: id, state: "active" });
      expect(started.isError, started.text).toBe(false);
      expect(started.data).toMatchObject({ state: "active", name: "Catalogue II" });
      expect((await call("jira_list_sprints", { boardId: 3 })).data.sprints).toEqual([expect.objectContaining({ id, state: "active" })]);

      for (const [args, message] of [
        [{ boardId: 3, name: "x".repeat(31) }, /name: name may be at most 30 characters/],
        [{ boardId: 3, name: "Dates", startDate: "next monday" }, /startDate: startDate must be a date such as 2026-12-01/],
        [{ boardId: 0, name: "Zero" }, /boardId: boardId must be at least 1/],
        [{ boardId: 3, name: "Backwards", startDate: "2026-12-10", endDate: "2026-12-01" }, /endDate is before startDate/],
      ] as const) {
        const res = await call("jira_create_sprint", args);
        expect(res.isError, JSON.stringify(args)).toBe(true);
        expect(res.text).toMatch(message);
      }
      const nothing = await call("jira_update_sprint", { sprintId: id });
      expect(nothing.text).toMatch(/nothing to change: give name, goal, startDate, endDate or state/);
      const missing = await call("jira_update_sprint", { sprintId: 99_999, name: "Ghost" });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/\(404\).*Sprint with id 99999 does not exist/);
    });

    it("moves issues into a sprint and back to the backlog; the sprint's issues show it", async () => {
      const sprint = (await call("jira_create_sprint", { boardId: 1, name: "Move target" })).data.sprintId as number;
      const [a, b] = [await newIssue("Move me"), await newIssue("Move me too")];
      const moved = await call("jira_move_issues_to_sprint", { sprintId: sprint, issueKeys: [a, b.toLowerCase(), a] });
      expect(moved.isError, moved.text).toBe(false);
      expect(moved.data).toEqual({
        sprintId: sprint,
        moved: [
          { key: a, url: `${rig.sandbox.url}/browse/${a}` },
          { key: b, url: `${rig.sandbox.url}/browse/${b}` },
        ],
      });
      expect(moved.text).toBe(`Moved 2 issues to sprint ${sprint}: ${a}, ${b}.`);
      const inSprint = await call("jira_get_sprint_issues", { sprintId: sprint });
      expect((inSprint.data.issues as { key: string }[]).map((i) => i.key).sort()).toEqual([a, b].sort());

      const back = await call("jira_move_issues_to_backlog", { issueKeys: [a] });
      expect(back.data).toMatchObject({ moved: [{ key: a }] });
      expect(back.text).toBe(`Moved 1 issue to the backlog: ${a}.`);
      expect(await sprintOf(a)).toBeNull();
      expect(await sprintOf(b)).toBe(sprint);

      const tooMany = await call("jira_move_issues_to_sprint", {
        sprintId: sprint,
        issueKeys: Array.from({ length: 51 }, (_, i) => `BK-${i + 1}`),
      });
      expect(tooMany.text).toMatch(/issueKeys: issueKeys may name at most 50 issues/);
      expect((await call("jira_move_issues_to_backlog", { issueKeys: [] })).text).toMatch(
        /issueKeys: issueKeys must name at least one issue/,
      );
      expect((await call("jira_move_issues_to_backlog", { issueKeys: ["not a key"] })).text).toMatch(/each issue key must look like BK-12/);
      const unknown = await call("jira_move_issues_to_sprint", { sprintId: sprint, issueKeys: ["BK-99999"] });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toMatch(/Issue 'BK-99999' does not exist/);
    });

    it("lists an epic's children page by page, a new child included", async () => {
      const epics = (await call("jira_search", { jql: "project = BK AND issuetype = Epic ORDER BY key ASC", maxResults: 50 })).data
        .issues as { key: string }[];
      const epic = epics[0]!.key;
      const child = await newIssue("A child of the epic", "BK", { parentKey: epic });
      const expected = (
        (await call("jira_search", { jql: `parent = ${epic} ORDER BY key ASC`, maxResults: 100 })).data.issues as { key: string }[]
      ).map((i) => i.key);
      expect(expected).toContain(child);

      const keys: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await call("jira_get_epic_children", { epicKey: epic.toLowerCase(), maxResults: 2, ...(cursor ? { cursor } : {}) });
        expect(page.isError, page.text).toBe(false);
        expect(page.data.epic).toBe(epic);
        keys.push(...(page.data.issues as { key: string }[]).map((i) => i.key));
        cursor = page.data.nextCursor ?? undefined;
        pages++;
      } while (cursor);
      expect(keys.sort()).toEqual([...expected].sort());
      expect(pages).toBe(Math.ceil(expected.length / 2));
      const first = await call("jira_get_epic_children", { epicKey: epic });
      expect(first.text).toContain(`- ${child} [To Do] A child of the epic — Task · unassigned`);
      expect(first.data.issues).toContainEqual(
        expect.objectContaining({ key: child, url: `${rig.sandbox.url}/browse/${child}`, status: "To Do" }),
      );

      const none = await call("jira_get_epic_children", { epicKey: child });
      expect(none).toMatchObject({ isError: false, text: `${child} has no child issues.` });
      const missing = await call("jira_get_epic_children", { epicKey: "BK-99999" });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/An issue with key 'BK-99999' does not exist for field 'parent'/);
    });

    it("the OPS allow-list holds: a BK board, sprint or issue is refused and nothing moves", async () => {
      const bkSprint = (await call("jira_create_sprint", { boardId: 1, name: "BK only" })).data.sprintId as number;
      const opsSprint = (await call("jira_create_sprint", { boardId: 2, name: "OPS only" })).data.sprintId as number;
      const opsIssue = await newIssue("An OPS issue", "OPS");
      // A board or sprint is placed by a read and refused without naming its project; an issue key names it.
      const refusal =
        /^(?:This client may not use the Jira project BK: an administrator limited it to OPS|Jira (?:board|sprint) \d+ is outside this client's projects \(OPS\) or does not exist)/;
      for (const [tool, args] of [
        ["jira_create_sprint", { boardId: 1, name: "Sneaky" }],
        ["jira_update_sprint", { sprintId: bkSprint, name: "Sneaky" }],
        ["jira_move_issues_to_sprint", { sprintId: opsSprint, issueKeys: [opsIssue, "BK-1"] }],
        ["jira_move_issues_to_sprint", { sprintId: bkSprint, issueKeys: [opsIssue] }],
        ["jira_move_issues_to_backlog", { issueKeys: [opsIssue, "BK-1"] }],
        ["jira_get_epic_children", { epicKey: "BK-1" }],
      ] as const) {
        const res = await ops.call(tool, args);
        expect(res.isError, tool).toBe(true);
        expect(res.text, tool).toMatch(refusal);
      }
      expect(await sprintOf(opsIssue)).toBeNull();
      expect(
        (
          (await call("jira_list_sprints", { boardId: 1, state: "future", maxResults: 100 })).data.sprints as { id: number; name: string }[]
        ).find((s) => s.id === bkSprint)?.name,
      ).toBe("BK only");
      const inside = await ops.call("jira_move_issues_to_sprint", { sprintId: opsSprint, issueKeys: [opsIssue] });
      expect(inside.isError, inside.text).toBe(false);
      expect(await sprintOf(opsIssue)).toBe(opsSprint);
    });

    it("reads a board's issues page by page, grouped by status, narrowed by JQL; each answer fits the listed output schema", async () => {
      const schema = (await client.client.listTools()).tools.find((t) => t.name === "jira_get_board_issues")!.outputSchema!;
      const ajv = new Ajv2020({ strict: false });
      const board = async (c: Client, args: Record<string, unknown>) => {
        const res = await c.call("jira_get_board_issues", args);
        if (!res.isError) expect(ajv.validate(schema, res.data), JSON.stringify(ajv.errors)).toBe(true);
        return res;
      };
      type Line = { key: string; summary: string; status?: string; type?: string; sprint?: string; url: string };
      const all = await sandboxGet("/rest/agile/1.0/board/1/issue?maxResults=100&fields=summary");
      const total = all.total as number;
      expect(total).toBeGreaterThan(20);

      const first = await board(client, { boardId: 1, maxResults: 20 });
      expect(first.isError, first.text).toBe(false);
      expect(first.data).toMatchObject({
        boardId: 1,
        board: "BK board",
        total,
        url: `${rig.sandbox.url}/jira/software/projects/BK/boards/1`,
        nextCursor: expect.any(String),
      });
      const issues = first.data.issues as Line[];
      expect(issues).toHaveLength(20);
      expect(issues[0]).toMatchObject({
        key: all.issues[0].key,
        url: `${rig.sandbox.url}/browse/${all.issues[0].key}`,
        status: expect.any(String),
        type: expect.any(String),
      });
      expect(first.text).toMatch(
        new RegExp(
          `^Board 1 "BK board": issues 1-20 of ${total} \\(more: call again with the cursor below\\)\\n${rig.sandbox.url}/jira/software/projects/BK/boards/1\\n\\n## `,
        ),
      );
      expect(first.text).toContain(`- ${issues[0]!.key} ${issues[0]!.summary} — ${issues[0]!.type}`);
      expect(first.text).toMatch(/\nnextCursor: \S+$/);

      // Every issue once, in the board's order, page after page.
      const keys = issues.map((i) => i.key);
      let cursor = first.data.nextCursor as string | undefined;
      while (cursor) {
        const page = await board(client, { boardId: 1, maxResults: 50, cursor });
        expect(page.isError, page.text).toBe(false);
        keys.push(...(page.data.issues as Line[]).map((i) => i.key));
        cursor = page.data.nextCursor ?? undefined;
      }
      expect(keys).toHaveLength(total);
      expect(new Set(keys).size).toBe(total);
      expect(keys.slice(0, 100)).toEqual((all.issues as { key: string }[]).map((i) => i.key));

      // JQL narrows the board (its ORDER BY kept); an issue in a sprint shows the sprint's name.
      const sprint = (await call("jira_create_sprint", { boardId: 1, name: "Board view" })).data.sprintId as number;
      const planned = await newIssue("On the board, in a sprint");
      expect((await call("jira_move_issues_to_sprint", { sprintId: sprint, issueKeys: [planned] })).isError).toBe(false);
      const narrowed = await board(client, { boardId: 1, jql: `key = ${planned}` });
      expect(narrowed.data).toMatchObject({
        total: 1,
        issues: [{ key: planned, summary: "On the board, in a sprint", sprint: "Board view" }],
      });
      expect(narrowed.data.nextCursor).toBeUndefined();
      expect(narrowed.text).toContain(`issues 1-1 of 1 matching key = ${planned}`);
      expect(narrowed.text).toContain(`- ${planned} On the board, in a sprint — `);
      expect(narrowed.text).toMatch(/ · Board view$/m);
      const epics = await board(client, { boardId: 1, jql: "issuetype = Epic ORDER BY key DESC" });
      const epicKeys = (epics.data.issues as Line[]).map((i) => i.key);
      expect(epicKeys.length).toBeGreaterThan(0);
      expect((epics.data.issues as Line[]).every((i) => i.type === "Epic")).toBe(true);
      expect(epicKeys).toEqual([...epicKeys].sort((a, b) => Number(b.split("-")[1]) - Number(a.split("-")[1])));
      const none = await board(client, { boardId: 1, jql: 'summary ~ "no such words anywhere zzqx"' });
      expect(none).toMatchObject({
        isError: false,
        text: `Board 1 "BK board" has no issues matching summary ~ "no such words anywhere zzqx".\n${rig.sandbox.url}/jira/software/projects/BK/boards/1`,
      });

      // A cursor belongs to its board and query.
      const elsewhere = await board(client, { boardId: 1, jql: "issuetype = Epic", cursor: first.data.nextCursor });
      expect(elsewhere.isError).toBe(true);
      expect(elsewhere.text).toMatch(/cursor is not a nextCursor this server gave for this query/);
      const typo = await board(client, { boardId: 1, jql: "statuss = Done" });
      expect(typo.isError).toBe(true);
      expect(typo.text).toMatch(/^JQL: field 'statuss' does not exist; did you mean 'status'\?/);
      for (const [args, message] of [
        [{ boardId: 0 }, /boardId: boardId must be at least 1/],
        [{ boardId: 1.5 }, /boardId: boardId must be a whole number/],
        [{ boardId: 1, maxResults: 101 }, /maxResults: maxResults may be at most 100/],
        [{ boardId: 1, jql: "x".repeat(2001) }, /jql: jql may be at most 2000 characters/],
        [{}, /boardId: /],
        [{ boardId: 1, projectKey: "BK" }, /does not take 'projectKey'; its arguments are boardId, jql, maxResults, cursor/],
      ] as const) {
        const res = await board(client, args);
        expect(res.isError, JSON.stringify(args)).toBe(true);
        expect(res.text).toMatch(message);
      }
      const missing = await board(client, { boardId: 99_999 });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/^Jira found nothing there \(404\)\. .*Board does not exist/);
      // Under a list, a board Jira does not have reads as one outside it: the answer tells neither.
      expect((await board(ops, { boardId: 99_999 })).text).toBe(
        "Jira board 99999 is outside this client's projects (OPS) or does not exist. Work within those projects, or ask an administrator.",
      );

      // Limited to OPS: the BK board is refused; the OPS board answers, with OPS issues only, and the JQL cannot leave OPS.
      const refused = await board(ops, { boardId: 1 });
      expect(refused.isError).toBe(true);
      expect(refused.text).toBe(
        "Jira board 1 is outside this client's projects (OPS) or does not exist. Work within those projects, or ask an administrator.",
      );
      const inside = await board(ops, { boardId: 2, maxResults: 100 });
      expect(inside.isError, inside.text).toBe(false);
      expect((inside.data.issues as Line[]).length).toBeGreaterThan(0);
      expect((inside.data.issues as Line[]).every((i) => i.key.startsWith("OPS-"))).toBe(true);
      expect((await board(ops, { boardId: 2, jql: "project = BK" })).data.issues).toEqual([]);
      expect((await board(ops, { boardId: 2, jql: "status = Done) OR (project = BK" })).text).toMatch(
        /quotes or parentheses do not balance/,
      );
    });

    it("an upstream failure is a tool error with a sentence to act on", async () => {
      await fault({ method: "POST", path: "/rest/agile/1.0/sprint", status: 500 });
      const res = await call("jira_create_sprint", { boardId: 1, name: "Unlucky" });
      expect(res.isError).toBe(true);
      expect(res.text).toMatch(/^Jira failed with an internal error \(500\)\. Try again later\.$/);
    });
  });

  describe("watchers and remote links (jira-links)", () => {
    it("lists, adds and removes watchers; adding twice and removing twice change nothing more", async () => {
      const me = (await call("jira_current_user")).data as { accountId: string; displayName: string };
      const users = (await call("jira_search_users", { query: "a", maxResults: 10 })).data.users as { accountId: string; name: string }[];
      const other = users.find((u) => u.accountId !== me.accountId)!;
      const key = await newIssue("Watch me");
      const first = await call("jira_list_watchers", { issueKey: key.toLowerCase() });
      expect(first.isError, first.text).toBe(false);
      expect(first.data).toEqual({
        key,
        watchCount: 1,
        isWatching: true,
        watchers: [{ accountId: me.accountId, name: me.displayName, active: true }],
        url: `${rig.sandbox.url}/browse/${key}`,
      });
      expect(first.text).toBe(`${key} has 1 watcher:\n- ${me.displayName}: ${me.accountId}`);

      for (let n = 0; n < 2; n++) {
        const added = await call("jira_add_watcher", { issueKey: key, accountId: other.accountId });
        expect(added).toMatchObject({
          isError: false,
          text: `${other.accountId} now watches ${key}.`,
          data: { key, accountId: other.accountId, watching: true },
        });
      }
      expect(
        ((await call("jira_list_watchers", { issueKey: key })).data.watchers as { accountId: string }[]).map((w) => w.accountId),
      ).toEqual([me.accountId, other.accountId]);
      for (let n = 0; n < 2; n++)
        expect((await call("jira_remove_watcher", { issueKey: key, accountId: me.accountId })).data).toMatchObject({ watching: false });
      const after = await call("jira_list_watchers", { issueKey: key });
      expect(after.data).toMatchObject({ watchCount: 1, isWatching: false, watchers: [{ accountId: other.accountId }] });

      const nobody = await call("jira_add_watcher", { issueKey: key, accountId: "no-such-account" });
      expect(nobody.isError).toBe(true);
      expect(nobody.text).toMatch(/Jira found nothing there \(404\).*Specified user does not exist/);
      expect((await call("jira_add_watcher", { issueKey: key, accountId: "" })).text).toMatch(/accountId: accountId must not be empty/);
      expect((await call("jira_list_watchers", { issueKey: "BK 1" })).text).toMatch(
        /issueKey: issueKey must be an issue key such as BK-12/,
      );
      const tools = (await client.client.listTools()).tools;
      expect(tools.find((t) => t.name === "jira_remove_watcher")?.annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
      });
    });

    it("adds remote links and lists them; refuses a URL that is not http(s)", async () => {
      const key = await newIssue("Has remote links");
      expect((await call("jira_list_remote_links", { issueKey: key })).text).toBe(`${key} has no remote links.`);
      const added = await call("jira_add_remote_link", {
        issueKey: key,
        url: "https://example.com/design",
        title: "Design doc",
        summary: "The plan",
        relationship: "design",
      });
      expect(added.isError, added.text).toBe(false);
      expect(added.data).toMatchObject({
        key,
        id: expect.any(Number),
        title: "Design doc",
        url: "https://example.com/design",
        issueUrl: `${rig.sandbox.url}/browse/${key}`,
      });
      await call("jira_add_remote_link", { issueKey: key, url: "http://wiki.example.com/x", title: "Wiki" });
      const list = await call("jira_list_remote_links", { issueKey: key });
      expect(list.data.links).toEqual([
        { id: added.data.id, title: "Design doc", url: "https://example.com/design", summary: "The plan", relationship: "design" },
        { id: expect.any(Number), title: "Wiki", url: "http://wiki.example.com/x" },
      ]);
      expect(list.text).toContain(`- [Design doc](https://example.com/design) (design) — The plan · id ${added.data.id}`);

      for (const url of ["javascript:alert(1)", "ftp://example.com/x", "example.com"]) {
        const bad = await call("jira_add_remote_link", { issueKey: key, url, title: "Bad" });
        expect(bad.isError, url).toBe(true);
        expect(bad.text).toMatch(/url: url must be an http or https URL/);
      }
      expect((await call("jira_add_remote_link", { issueKey: key, url: "https://example.com", title: " " })).text).toMatch(
        /title: title must not be empty/,
      );
      expect((await call("jira_list_remote_links", { issueKey: key })).data.links).toHaveLength(2);
    });

    it("the OPS allow-list refuses a BK issue and changes nothing; an upstream failure is a usable sentence", async () => {
      const key = await newIssue("Outside OPS");
      const refusal = /This client may not use the Jira project BK: an administrator limited it to OPS/;
      for (const [tool, args] of [
        ["jira_list_watchers", { issueKey: key }],
        ["jira_add_watcher", { issueKey: key, accountId: "x" }],
        ["jira_remove_watcher", { issueKey: key, accountId: "x" }],
        ["jira_list_remote_links", { issueKey: key }],
        ["jira_add_remote_link", { issueKey: key, url: "https://example.com", title: "Sneaky" }],
      ] as const) {
        const res = await ops.call(tool, args);
        expect(res.isError, tool).toBe(true);
        expect(res.text, tool).toMatch(refusal);
      }
      expect((await call("jira_list_remote_links", { issueKey: key })).data.links).toEqual([]);
      expect((await call("jira_list_watchers", { issueKey: key })).data.watchCount).toBe(1);

      await fault({ method: "GET", path: `/rest/api/3/issue/${key}/watchers`, status: 503 });
      const failed = await call("jira_list_watchers", { issueKey: key });
      expect(failed.isError).toBe(true);
      expect(failed.text).toBe("Jira failed with an internal error (503). Try again later.");
    });
  });

  describe("versions, field metadata and batch create (jira-admin)", () => {
    it("creates a version, which the project then lists; a duplicate is Jira's field error", async () => {
      const created = await call("jira_create_version", {
        projectKey: "web",
        name: "v9.0.0",
        description: "Big bang",
        releaseDate: "2026-12-24",
      });
      expect(created.isError, created.text).toBe(false);
      expect(created.data).toEqual({
        id: expect.any(String),
        name: "v9.0.0",
        projectKey: "WEB",
        released: false,
        releaseDate: "2026-12-24",
        url: `${rig.sandbox.url}/projects/WEB/versions/${created.data.id}`,
      });
      expect(created.text).toBe(`Created version v9.0.0 (id ${created.data.id}) in WEB, release 2026-12-24.\n${created.data.url}`);
      expect((await call("jira_get_project", { projectKey: "WEB" })).data.versions).toContainEqual({
        name: "v9.0.0",
        released: false,
        releaseDate: "2026-12-24",
      });
      const again = await call("jira_create_version", { projectKey: "WEB", name: "v9.0.0" });
      expect(again.isError).toBe(true);
      expect(again.text).toMatch(/\(400\).*name: A version with this name already exists in this project/);
      expect((await call("jira_create_version", { projectKey: "WEB", name: "x", releaseDate: "Christmas" })).text).toMatch(
        /releaseDate: releaseDate must be a date such as 2026-12-24/,
      );
      expect(
        (await call("jira_create_version", { projectKey: "WEB", name: "x", startDate: "2026-12-24", releaseDate: "2026-12-01" })).text,
      ).toMatch(/releaseDate is before startDate/);
    });

    it("lists the fields to create an issue (required first, custom field ids, allowed values) and those an issue can change", async () => {
      const create = await call("jira_get_create_fields", { projectKey: "BK", issueType: "story" });
      expect(create.isError, create.text).toBe(false);
      expect(create.data.issueType).toEqual({ id: "10001", name: "Story" });
      expect(create.data.truncated).toBe(false);
      const fields = create.data.fields as { id: string; required: boolean; custom: boolean; allowedValues?: string[] }[];
      expect(fields.slice(0, 3).every((f) => f.required)).toBe(true);
      expect(fields.find((f) => f.id === "summary")).toEqual({
        id: "summary",
        name: "Summary",
        required: true,
        type: "string",
        custom: false,
      });
      expect(fields.find((f) => f.id === "customfield_10016")).toEqual({
        id: "customfield_10016",
        name: "Story point estimate",
        required: false,
        type: "number",
        custom: true,
      });
      expect(fields.find((f) => f.id === "priority")?.allowedValues).toEqual(["Highest", "High", "Medium", "Low", "Lowest"]);
      expect(create.text).toMatch(/^Fields to create a Story in BK \(3 required\):\n- summary — Summary: string, required/);
      expect(create.text).toContain("- customfield_10016 — Story point estimate: number\n");
      expect(create.text).toContain("- components — Components: array of component; values: ");
      expect((await call("jira_get_create_fields", { projectKey: "BK", issueType: "10004" })).data.fields).toContainEqual(
        expect.objectContaining({ id: "parent", required: true }),
      );
      const unknown = await call("jira_get_create_fields", { projectKey: "BK", issueType: "Saga" });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toBe('BK has no issue type "Saga". Its types are: Epic, Story, Task, Bug, Subtask.');

      const edit = await call("jira_get_edit_fields", { issueKey: "bk-2" });
      expect(edit.isError, edit.text).toBe(false);
      expect(edit.data.key).toBe("BK-2");
      expect(edit.data.fields).toContainEqual({
        id: "labels",
        name: "Labels",
        required: false,
        type: "array of string",
        custom: false,
        operations: ["add", "set", "remove"],
      });
      expect((edit.data.fields as { id: string }[]).map((f) => f.id)).not.toContain("project");
      expect(edit.text).toContain("- comment — Comment: comments-page (add/edit/remove)");
      expect((await call("jira_get_edit_fields", { issueKey: "BK-99999" })).text).toMatch(/\(404\)/);
    });

    it("creates a batch: created keys and per-item errors side by side; none created is a tool error", async () => {
      const res = await call("jira_create_issues", {
        issues: [
          { projectKey: "BK", summary: "Batch one", description: "Some **bold** text", labels: ["batch"] },
          { projectKey: "BK", summary: "Batch two", priority: "Urgentest" },
          { projectKey: "OPS", issueType: "Bug", summary: "Batch three" },
        ],
      });
      expect(res.isError, res.text).toBe(false);
      const created = res.data.created as { index: number; key: string; summary: string; url: string }[];
      expect(created.map((c) => [c.index, c.summary])).toEqual([
        [0, "Batch one"],
        [2, "Batch three"],
      ]);
      expect(created[1]!.key).toMatch(/^OPS-\d+$/);
      expect(res.data.failed).toEqual([{ index: 1, summary: "Batch two", errors: "priority: Specify a valid priority" }]);
      expect(res.text).toBe(
        [
          `Created 2 of 3 issues:`,
          `- #0 ${created[0]!.key}: Batch one ${created[0]!.url}`,
          `- #2 ${created[1]!.key}: Batch three ${created[1]!.url}`,
          "Failed (1; nothing was created for these):",
          '- #1 "Batch two": priority: Specify a valid priority',
        ].join("\n"),
      );
      const first = await call("jira_get_issue", { issueKey: created[0]!.key });
      expect(first.data).toMatchObject({ summary: "Batch one", description: "Some **bold** text", labels: ["batch"] });
      expect((await call("jira_get_issue", { issueKey: created[1]!.key })).data.type).toBe("Bug");

      const none = await call("jira_create_issues", {
        issues: [
          { projectKey: "BK", summary: "x", priority: "Nope" },
          { projectKey: "BK", issueType: "Saga", summary: "y" },
        ],
      });
      expect(none.isError).toBe(true);
      expect(none.text).toBe(
        'Jira created none of the 2 issues. #0 "x": priority: Specify a valid priority. #1 "y": issuetype: The issue type selected is invalid. Fix these and call again.',
      );
      expect((await call("jira_create_issues", { issues: [] })).text).toMatch(/issues: issues must hold at least one issue/);
      expect(
        (await call("jira_create_issues", { issues: Array.from({ length: 51 }, (_, n) => ({ projectKey: "BK", summary: `n${n}` })) })).text,
      ).toMatch(/issues may hold at most 50 issues/);
      expect((await call("jira_create_issues", { issues: [{ projectKey: "BK" }] })).text).toMatch(/issues\.0\.summary: /);
    });

    it("the OPS allow-list refuses a batch with one BK item entirely, and the other admin tools outside it", async () => {
      const before = (await call("jira_search", { jql: 'summary ~ "Allow-list batch"', maxResults: 10 })).data.issues as unknown[];
      expect(before).toHaveLength(0);
      const refusal = /This client may not use the Jira project BK: an administrator limited it to OPS/;
      for (const [tool, args] of [
        [
          "jira_create_issues",
          {
            issues: [
              { projectKey: "OPS", summary: "Allow-list batch" },
              { projectKey: "BK", summary: "Allow-list batch" },
            ],
          },
        ],
        ["jira_create_issues", { issues: [{ projectKey: "OPS", summary: "Allow-list batch", parentKey: "BK-1" }] }],
        ["jira_create_version", { projectKey: "BK", name: "sneaky" }],
        ["jira_get_create_fields", { projectKey: "BK", issueType: "Task" }],
        ["jira_get_edit_fields", { issueKey: "BK-1" }],
      ] as const) {
        const res = await ops.call(tool, args);
        expect(res.isError, tool).toBe(true);
        expect(res.text, tool).toMatch(refusal);
      }
      expect((await call("jira_search", { jql: 'summary ~ "Allow-list batch"', maxResults: 10 })).data.issues).toHaveLength(0);
      const inside = await ops.call("jira_create_issues", { issues: [{ projectKey: "OPS", summary: "Allowed batch" }] });
      expect(inside.data.created).toEqual([expect.objectContaining({ index: 0, key: expect.stringMatching(/^OPS-/) })]);
    });

    it("an upstream failure of the batch is a tool error with a usable sentence", async () => {
      await fault({ method: "POST", path: "/rest/api/3/issue/bulk", status: 502 });
      const res = await call("jira_create_issues", { issues: [{ projectKey: "BK", summary: "Unlucky" }] });
      expect(res.isError).toBe(true);
      expect(res.text).toBe("Jira failed with an internal error (502). Try again later.");
      await fault({ method: "GET", path: "^/rest/api/3/issue/createmeta/BK/issuetypes$", status: 429, retryAfter: 120 });
      const limited = await call("jira_get_create_fields", { projectKey: "BK", issueType: "Task" });
      expect(limited.text).toMatch(/^Jira is rate limiting requests \(429\); wait 120 s before trying again/);
    });
  });

  describe("attachments (jira-attachments)", () => {
    it("adds a text and a binary file, lists them, and reads the text one back; the issue shows them", async () => {
      const key = await newIssue("Has attachments");
      const notes = "# Notes\n\nGrüße — ünïcödé\n";
      const text = await call("jira_add_attachment", { issueKey: key, filename: "notes.md", content: notes });
      expect(text.isError, text.text).toBe(false);
      expect(text.data.attachment).toMatchObject({ filename: "notes.md", mimeType: "text/markdown", size: Buffer.byteLength(notes) });
      expect(text.text).toBe(
        `Attached notes.md (text/markdown, ${Buffer.byteLength(notes)} bytes) to ${key} as attachment ${text.data.attachment.id}.\n${rig.sandbox.url}/browse/${key}`,
      );
      const bytes = Buffer.from([137, 80, 78, 71, 0, 1, 2, 255]);
      const binary = await call("jira_add_attachment", {
        issueKey: key,
        filename: "pixel.png",
        content: bytes.toString("base64"),
        encoding: "base64",
      });
      expect(binary.data.attachment).toMatchObject({ filename: "pixel.png", mimeType: "image/png", size: bytes.length });
      const stored = await fetch(`${rig.sandbox.url}/rest/api/3/attachment/content/${binary.data.attachment.id}?redirect=false`, {
        headers: sandboxAuth,
      });
      expect(Buffer.from(await stored.arrayBuffer())).toEqual(bytes);

      const list = await call("jira_list_attachments", { issueKey: key });
      expect((list.data.attachments as { id: string; filename: string }[]).map((a) => a.filename)).toEqual(["notes.md", "pixel.png"]);
      expect(list.text).toContain(`- ${text.data.attachment.id}: notes.md (text/markdown, ${Buffer.byteLength(notes)} bytes) by `);
      expect((await call("jira_get_issue", { issueKey: key })).data.attachments).toEqual([
        { filename: "notes.md", size: Buffer.byteLength(notes), mimeType: "text/markdown" },
        { filename: "pixel.png", size: bytes.length, mimeType: "image/png" },
      ]);

      const read = await call("jira_read_attachment", { issueKey: key, attachmentId: text.data.attachment.id });
      expect(read.isError, read.text).toBe(false);
      expect(read.data).toEqual({
        key,
        id: text.data.attachment.id,
        filename: "notes.md",
        mimeType: "text/markdown",
        size: Buffer.byteLength(notes),
        truncated: false,
        content: notes,
      });
      expect(read.text).toBe(`# notes.md (text/markdown, ${Buffer.byteLength(notes)} bytes) on ${key}\n\n${notes}`);
      const png = await call("jira_read_attachment", { issueKey: key, attachmentId: binary.data.attachment.id });
      expect(png.isError).toBe(true);
      expect(png.text).toBe(
        "pixel.png is image/png, a binary file: it cannot be read as text. Only text attachments (text/*, JSON, XML, CSV, YAML) can be read.",
      );
      const seeded = (await call("jira_list_attachments", { issueKey: "BK-1" })).data.attachments as { id: string; filename: string }[];
      expect(
        (await call("jira_read_attachment", { issueKey: "BK-1", attachmentId: seeded.find((a) => a.filename === "release-notes.md")!.id }))
          .data.content,
      ).toMatch(/^# Release notes/);
    });

    it("truncates a long text attachment with a flag, and refuses a file over 1 MB, bad base64 and another issue's attachment", async () => {
      const key = await newIssue("Long attachment");
      const long = Array.from({ length: 2_000 }, (_, n) => `line ${n} é`).join("\n");
      const added = await call("jira_add_attachment", { issueKey: key, filename: "long.log", content: long });
      const id = added.data.attachment.id as string;
      const read = await call("jira_read_attachment", { issueKey: key, attachmentId: id, maxBytes: 1_001 });
      expect(read.data).toMatchObject({ truncated: true, size: Buffer.byteLength(long) });
      expect(long.startsWith(read.data.content)).toBe(true);
      expect(Buffer.byteLength(read.data.content)).toBeLessThanOrEqual(1_001);
      expect(Buffer.byteLength(read.data.content)).toBeGreaterThanOrEqual(999);
      expect(read.text).toMatch(
        new RegExp(`\\[truncated: the first 1001 of ${Buffer.byteLength(long)} bytes; raise maxBytes \\(up to 100000\\) for more\\]$`),
      );
      expect((await call("jira_read_attachment", { issueKey: key, attachmentId: id, maxBytes: 100_000 })).data).toMatchObject({
        truncated: false,
        content: long,
      });

      const big = await call("jira_add_attachment", {
        issueKey: key,
        filename: "big.bin",
        content: Buffer.alloc(1024 * 1024 + 1).toString("base64"),
        encoding: "base64",
      });
      expect(big.isError).toBe(true);
      expect(big.text).toBe(
        "The file is 1048577 bytes; attachments added through Bridgekeeper may be at most 1048576 bytes (1 MB). Attach a smaller file, or split it.",
      );
      expect(
        (await call("jira_add_attachment", { issueKey: key, filename: "x.bin", content: "not base64!", encoding: "base64" })).text,
      ).toMatch(/content is not valid base64/);
      expect((await call("jira_add_attachment", { issueKey: key, filename: "../etc/passwd", content: "x" })).text).toMatch(
        /filename: filename must be a plain file name/,
      );
      expect((await call("jira_read_attachment", { issueKey: key, attachmentId: "abc" })).text).toMatch(
        /attachmentId: attachmentId must be an attachment id/,
      );
      expect((await call("jira_read_attachment", { issueKey: key, attachmentId: id, maxBytes: 200_000 })).text).toMatch(
        /maxBytes: maxBytes may be at most 100000/,
      );
      const elsewhere = await call("jira_read_attachment", { issueKey: "BK-2", attachmentId: id });
      expect(elsewhere.isError).toBe(true);
      expect(elsewhere.text).toMatch(new RegExp(`^BK-2 has no attachment ${id}\\.`));
      expect((await call("jira_list_attachments", { issueKey: key })).data.attachments).toHaveLength(1);
    });

    it("the OPS allow-list refuses a BK issue's attachments; an upstream failure of the upload is a usable sentence", async () => {
      const key = await newIssue("BK attachment");
      const id = (await call("jira_add_attachment", { issueKey: key, filename: "a.txt", content: "secret" })).data.attachment.id as string;
      const refusal = /This client may not use the Jira project BK: an administrator limited it to OPS/;
      for (const [tool, args] of [
        ["jira_list_attachments", { issueKey: key }],
        ["jira_add_attachment", { issueKey: key, filename: "b.txt", content: "x" }],
        ["jira_read_attachment", { issueKey: key, attachmentId: id }],
      ] as const) {
        const res = await ops.call(tool, args);
        expect(res.isError, tool).toBe(true);
        expect(res.text, tool).toMatch(refusal);
      }
      const opsKey = await newIssue("OPS issue", "OPS");
      const sideways = await ops.call("jira_read_attachment", { issueKey: opsKey, attachmentId: id });
      expect(sideways.isError).toBe(true);
      expect(sideways.text).toBe(`${opsKey} has no attachment ${id}. It has no attachments.`);
      expect((await call("jira_list_attachments", { issueKey: key })).data.attachments).toHaveLength(1);

      await fault({ method: "POST", path: `/rest/api/3/issue/${key}/attachments`, status: 500 });
      const failed = await call("jira_add_attachment", { issueKey: key, filename: "c.txt", content: "x" });
      expect(failed).toMatchObject({ isError: true, text: "Jira failed with an internal error (500). Try again later." });
      expect((await call("jira_list_attachments", { issueKey: key })).data.attachments).toHaveLength(1);
    });
  });

  it("a read-only client sees the read tools of the catalogue and none of its write tools", async () => {
    const names = (await reader.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "jira_get_board_issues",
        "jira_get_epic_children",
        "jira_list_watchers",
        "jira_list_remote_links",
        "jira_get_create_fields",
        "jira_get_edit_fields",
        "jira_list_attachments",
        "jira_read_attachment",
      ]),
    );
    for (const name of [
      "jira_create_sprint",
      "jira_update_sprint",
      "jira_move_issues_to_sprint",
      "jira_move_issues_to_backlog",
      "jira_add_watcher",
      "jira_remove_watcher",
      "jira_add_remote_link",
      "jira_create_version",
      "jira_create_issues",
      "jira_add_attachment",
    ])
      expect(names).not.toContain(name);
    await expect(reader.client.callTool({ name: "jira_create_sprint", arguments: { boardId: 1, name: "x" } })).rejects.toThrow(
      /Unknown tool/,
    );
  });
});
