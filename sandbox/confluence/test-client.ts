import type { Sandbox } from "../server";

/** A tiny fetch wrapper for the Confluence tests: Basic auth, JSON in and out. */

export interface ApiResponse {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Headers;
}

export function client(sandbox: Sandbox) {
  const { email, apiToken } = sandbox.credentials.atlassian;
  const authorization = `Basic ${Buffer.from(`${email}:${apiToken}`).toString("base64")}`;
  return async (path: string, init: { method?: string; body?: unknown } = {}): Promise<ApiResponse> => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method: init.method ?? "GET",
      headers: { authorization, accept: "application/json", ...(init.body !== undefined ? { "content-type": "application/json" } : {}) },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
}

export type Api = ReturnType<typeof client>;

/** Follows v1 `_links.next` (relative to `_links.base`) to the end; returns every result. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the results are JSON the tests read loosely
export async function allV1(api: Api, sandbox: Sandbox, first: string): Promise<any[]> {
  const out: unknown[] = [];
  let path: string | undefined = first;
  for (let guard = 0; path && guard < 500; guard++) {
    const res = await api(path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.results);
    const next: string | undefined = res.body._links.next;
    path = next ? `${res.body._links.base}${next}`.slice(sandbox.url.length) : undefined;
  }
  return out;
}

/** Follows v2 `_links.next` (which starts with /wiki) to the end, checking the Link header agrees. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the results are JSON the tests read loosely
export async function allV2(api: Api, first: string): Promise<any[]> {
  const out: unknown[] = [];
  let path: string | undefined = first;
  for (let guard = 0; path && guard < 500; guard++) {
    const res = await api(path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(...res.body.results);
    const next: string | undefined = res.body._links.next;
    const link = res.headers.get("link");
    if (next && !link?.includes(`<${next}>; rel="next"`)) throw new Error(`Link header ${link} does not carry ${next}`);
    if (!next && link) throw new Error(`unexpected Link header on the last page: ${link}`);
    path = next;
  }
  return out;
}
