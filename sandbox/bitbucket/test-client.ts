import { expect } from "vitest";
import type { Sandbox } from "../server";

/** HTTP helpers for the Bitbucket sandbox tests (Basic auth as the demo user). */

export const AUTH = `Basic ${Buffer.from("demo:sandbox-app-password").toString("base64")}`;
export const REPOS = "/2.0/repositories/bridgekeeper";

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read loosely typed JSON bodies */
export function client(sandbox: () => Sandbox) {
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(path.startsWith("http") ? path : `${sandbox().url}${path}`, {
      method,
      headers: { authorization: AUTH, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function getJson(path: string): Promise<any> {
    const res = await call("GET", path);
    expect(res.status, `${path}: ${res.status}`).toBe(200);
    return res.json();
  }

  /** Every value of a paginated list, following `next`. */
  async function all(path: string): Promise<{ values: any[]; pages: any[] }> {
    const pages: any[] = [];
    let next: string | undefined = path;
    while (next) {
      const page = await getJson(next);
      pages.push(page);
      next = page.next;
    }
    return { values: pages.flatMap((p) => p.values), pages };
  }

  /** The `skip`-th open pull request (across a few repositories) authored by someone other than demo. */
  async function someOpenPullRequest(skip = 0): Promise<{ slug: string; pr: any }> {
    const found: { slug: string; pr: any }[] = [];
    for (const slug of ["api-gateway", "auth-service", "billing-service", "user-service", "web-frontend", "etl-pipelines", "ml-models"]) {
      for (const pr of (await all(`${REPOS}/${slug}/pullrequests?state=OPEN&pagelen=50`)).values)
        if (pr.author.nickname !== "demo") found.push({ slug, pr });
      if (found.length > skip) break;
    }
    expect(found.length).toBeGreaterThan(skip);
    return found[skip]!;
  }

  return { call, getJson, all, someOpenPullRequest };
}
