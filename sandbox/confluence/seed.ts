import { DEFAULT_CREDENTIALS, type SandboxCredentials } from "../credentials";
import { personByEmail } from "../identity/people";
import { SEED_EPOCH, seedDate } from "../core/random";
import type { Rng } from "../core/random";
import { escapeXml } from "./render";
import { insertContent, makeLabel, textFields } from "./store";
import type { ConfluenceState, Content, ContentType, Space, User, VersionInfo } from "./types";
import { BLOG_TITLES, BULLETS, CODE_SNIPPETS, COMMENTS, PARAGRAPHS, SPACE_PLANS, USERS, VERSION_MESSAGES } from "./vocabulary";
import type { SpacePlan } from "./vocabulary";

/** 200 pages across four spaces, plus blog posts and comments: the same data for the same seed. */
export const PAGE_COUNT = 200;
const FIRST_CONTENT_ID = 1_081_344;
const MAX_DEPTH = 5;

interface Ctx {
  rng: Rng;
  state: ConfluenceState;
  users: User[];
}

const fill = (rng: Rng, template: string, plan: SpacePlan, subject: string): string =>
  template
    .replace("{s}", subject)
    .replace("{n}", String(rng.int(2, 140)))
    .replace("{q}", `Q${rng.int(1, 4)} ${rng.pick([2025, 2026])}`)
    .replace("{v}", `${rng.int(3, 5)}.${rng.int(0, 12)}`)
    .replace("{y}", String(rng.pick([2025, 2026])))
    .replace("{d}", `2025-${String(rng.int(1, 12)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}`)
    .replace("{name}", plan.name);

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function paragraph(rng: Rng, subject: string): string {
  return escapeXml(
    rng
      .pick(PARAGRAPHS)
      .replace("{s}", subject)
      .replace("{n}", String(rng.int(3, 400))),
  );
}

/** A storage-format body: headings, paragraphs, a list, sometimes a table, a code macro or an info panel. */
function storageBody(rng: Rng, title: string, subject: string, users: User[]): string {
  const parts: string[] = [`<h1>${escapeXml(title)}</h1>`, `<p>${paragraph(rng, subject)} ${paragraph(rng, subject)}</p>`];
  if (rng.chance(0.3)) {
    parts.push(
      `<ac:structured-macro ac:name="info" ac:schema-version="1" ac:macro-id="${rng.hex(8)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(12)}"><ac:rich-text-body><p>${paragraph(rng, subject)}</p></ac:rich-text-body></ac:structured-macro>`,
    );
  }
  parts.push("<h2>Details</h2>", `<p>${paragraph(rng, subject)}</p>`);
  const bullets = rng.sample(BULLETS, rng.int(2, 5)).map((b) => `<li>${escapeXml(b.replace("{s}", subject))}</li>`);
  parts.push(rng.chance(0.5) ? `<ul>${bullets.join("")}</ul>` : `<ol>${bullets.join("")}</ol>`);
  if (rng.chance(0.35)) {
    const rows = rng
      .sample(users, rng.int(2, 4))
      .map(
        (u) =>
          `<tr><td>${escapeXml(u.displayName)}</td><td>${rng.pick(["Done", "In progress", "Blocked", "Not started"])}</td><td>${rng.int(1, 13)}</td></tr>`,
      );
    parts.push("<h2>Owners</h2>", `<table><tbody><tr><th>Owner</th><th>Status</th><th>Estimate</th></tr>${rows.join("")}</tbody></table>`);
  }
  if (rng.chance(0.25)) {
    const snippet = rng.pick(CODE_SNIPPETS);
    const slug = subject.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    parts.push(
      "<h2>Example</h2>",
      `<ac:structured-macro ac:name="code" ac:schema-version="1" ac:macro-id="${rng.hex(8)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(12)}"><ac:parameter ac:name="language">${snippet.language}</ac:parameter><ac:plain-text-body><![CDATA[${snippet.code.replaceAll("{slug}", slug)}]]></ac:plain-text-body></ac:structured-macro>`,
    );
  }
  if (rng.chance(0.2))
    parts.push(`<p>Contact <ac:link><ri:user ri:account-id="${rng.pick(users).accountId}" /></ac:link> with questions.</p>`);
  return parts.join("");
}

/** Versions at random moments between `createdAt` and the seed epoch, oldest first. */
function versionsFrom(rng: Rng, createdAt: number, authorId: string, users: User[]): VersionInfo[] {
  const count = rng.chance(0.35) ? 1 : rng.int(2, 6);
  const span = Math.max(0, SEED_EPOCH - 3_600_000 - createdAt);
  const times = [createdAt, ...Array.from({ length: count - 1 }, () => createdAt + Math.floor(rng.next() * span))].sort((a, b) => a - b);
  return times.map((at, i) => ({
    number: i + 1,
    when: new Date(at).toISOString(),
    by: i === 0 ? authorId : rng.pick(users).accountId,
    message: i === 0 ? "" : rng.pick(VERSION_MESSAGES),
    minorEdit: i > 0 && rng.chance(0.2),
  }));
}

function addContent(
  ctx: Ctx,
  type: ContentType,
  fields: Pick<Content, "title" | "spaceKey" | "parentId" | "containerId" | "body">,
  createdAt: number,
): Content {
  const { rng, state, users } = ctx;
  state.nextId += rng.int(1, 7);
  const author = rng.pick(users).accountId;
  return insertContent(state, {
    id: String(state.nextId),
    type,
    status: "current",
    position: 0,
    ...textFields(fields.title, fields.body),
    createdAt: new Date(createdAt).toISOString(),
    authorId: author,
    versions:
      type === "comment"
        ? [{ number: 1, when: new Date(createdAt).toISOString(), by: author, message: "", minorEdit: false }]
        : versionsFrom(rng, createdAt, author, users),
    labels: [],
    ...fields,
  });
}

const childDate = (rng: Rng, parentCreated: string): number => {
  const from = Date.parse(parentCreated);
  return from + Math.floor(rng.next() * Math.max(0, SEED_EPOCH - 86_400_000 - from));
};

function seedSpace(ctx: Ctx, plan: SpacePlan, index: number, pageBudget: number): void {
  const { rng, state, users } = ctx;
  const taken = new Set<string>();
  const unique = (title: string) => {
    let t = title;
    for (let n = 2; taken.has(t.toLowerCase()); n++) t = `${title} (${n})`;
    taken.add(t.toLowerCase());
    return t;
  };
  const homeTitle = unique(`${plan.name} Home`);
  const homeCreated = seedDate(rng, 720).getTime() - 300 * 86_400_000;
  const homeBody = `<h1>Welcome to ${escapeXml(plan.name)}</h1><p>${escapeXml(plan.description)}</p><h2>Sections</h2><ul>${plan.sections.map((s) => `<li><ac:link><ri:page ri:content-title="${escapeXml(s.title)}" /></ac:link></li>`).join("")}</ul>`;
  const home = addContent(
    ctx,
    "page",
    { title: homeTitle, spaceKey: plan.key, parentId: null, containerId: null, body: homeBody },
    homeCreated,
  );
  const space: Space = {
    id: 98_304 + (index + 1) * 32_769,
    key: plan.key,
    name: plan.name,
    description: plan.description,
    homepageId: home.id,
    createdAt: new Date(homeCreated).toISOString(),
    authorId: DEFAULT_CREDENTIALS.atlassian.accountId,
  };
  state.spaces.push(space);
  state.spaceByKey.set(space.key, space);
  state.spaceById.set(String(space.id), space);

  // Sections under the homepage, then pages under a section or (deeper) under an earlier page of it.
  const nodes: { page: Content; depth: number; section: number }[] = [];
  plan.sections.forEach((section, i) => {
    const title = unique(section.title);
    const body = `<h1>${escapeXml(section.title)}</h1><p>Everything about ${escapeXml(section.title.toLowerCase())} in ${escapeXml(plan.name)}.</p>`;
    const page = addContent(
      ctx,
      "page",
      { title, spaceKey: plan.key, parentId: home.id, containerId: null, body },
      childDate(rng, home.createdAt),
    );
    page.labels.push(makeLabel(state, section.label));
    nodes.push({ page, depth: 2, section: i });
  });
  for (let made = plan.sections.length + 1; made < pageBudget; made++) {
    const candidates = nodes.filter((n) => n.depth < MAX_DEPTH);
    const parent = rng.chance(0.45) ? nodes[rng.int(0, plan.sections.length - 1)]! : rng.pick(candidates);
    const section = plan.sections[parent.section]!;
    let subject = rng.pick(plan.subjects);
    let candidate = capitalise(fill(rng, rng.pick(section.templates), plan, subject));
    for (let retry = 0; retry < 8 && taken.has(candidate.toLowerCase()); retry++) {
      subject = rng.pick(plan.subjects);
      candidate = capitalise(fill(rng, rng.pick(section.templates), plan, subject));
    }
    const title = unique(candidate);
    const page = addContent(
      ctx,
      "page",
      { title, spaceKey: plan.key, parentId: parent.page.id, containerId: null, body: storageBody(rng, title, subject, users) },
      childDate(rng, parent.page.createdAt),
    );
    for (const name of new Set([section.label, ...rng.sample(plan.labels, rng.int(0, 2))])) page.labels.push(makeLabel(state, name));
    nodes.push({ page, depth: parent.depth + 1, section: parent.section });
  }
  for (let b = 0; b < 2; b++) {
    const subject = rng.pick(plan.subjects);
    const title = unique(capitalise(fill(rng, BLOG_TITLES[(index + b) % BLOG_TITLES.length]!, plan, subject)));
    const post = addContent(
      ctx,
      "blogpost",
      { title, spaceKey: plan.key, parentId: null, containerId: null, body: storageBody(rng, title, subject, users) },
      seedDate(rng, 60).getTime(),
    );
    post.labels.push(makeLabel(state, "announcement"));
  }
}

function seedComments(ctx: Ctx): void {
  const { rng, state } = ctx;
  const targets = state.ordered.filter((c) => c.type !== "comment");
  for (const target of targets) {
    if (!rng.chance(target.type === "blogpost" ? 0.6 : 0.25)) continue;
    let previous: Content | null = null;
    for (let i = rng.int(1, 3); i > 0; i--) {
      const reply: boolean = previous !== null && rng.chance(0.3);
      const body = `<p>${escapeXml(rng.pick(COMMENTS))}</p>`;
      const when = childDate(rng, previous?.createdAt ?? target.versions[target.versions.length - 1]!.when);
      previous = addContent(
        ctx,
        "comment",
        {
          title: `Re: ${target.title}`,
          spaceKey: target.spaceKey,
          parentId: reply && previous ? previous.id : null,
          containerId: target.id,
          body,
        },
        when,
      );
    }
  }
}

export function seedConfluence(rng: Rng, accounts: SandboxCredentials = DEFAULT_CREDENTIALS): ConfluenceState {
  // A linkable person (same email) has their one Atlassian account id here too.
  const users = USERS.map((u) => {
    if (u.accountId === DEFAULT_CREDENTIALS.atlassian.accountId)
      return { ...u, displayName: DEFAULT_CREDENTIALS.atlassian.displayName, email: DEFAULT_CREDENTIALS.atlassian.email };
    const person = personByEmail(accounts.people, u.email);
    return person ? { ...u, accountId: person.accountId } : u;
  });
  const state: ConfluenceState = {
    users,
    userById: new Map(users.map((u) => [u.accountId, u])),
    currentUserId: DEFAULT_CREDENTIALS.atlassian.accountId,
    spaces: [],
    spaceByKey: new Map(),
    spaceById: new Map(),
    content: new Map(),
    ordered: [],
    children: new Map(),
    rootPages: new Map(),
    comments: new Map(),
    nextId: FIRST_CONTENT_ID,
    nextLabelId: 4_194_304,
    attachments: new Map(),
  };
  const ctx: Ctx = { rng, state, users };
  const perSpace = Math.floor(PAGE_COUNT / SPACE_PLANS.length);
  SPACE_PLANS.forEach((plan, i) => seedSpace(ctx, plan, i, i === SPACE_PLANS.length - 1 ? PAGE_COUNT - perSpace * i : perSpace));
  seedComments(ctx);
  state.spaces.sort((a, b) => a.key.localeCompare(b.key));
  // People the seed did not cast join as users with no content (after every draw: the data is unchanged).
  for (const p of accounts.people) {
    if (state.userById.has(p.accountId)) continue;
    const user: User = { accountId: p.accountId, displayName: p.displayName, email: p.email };
    state.users = [...state.users, user];
    state.userById.set(user.accountId, user);
  }
  return state;
}
