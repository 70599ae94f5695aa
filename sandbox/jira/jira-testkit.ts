import { startSandbox, type Sandbox } from "../server";

/** Test helper: a sandbox plus a fetch that sends the sandbox account's Basic credentials. */
export interface JiraClient {
  sandbox: Sandbox;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read loosely typed JSON bodies
  call: (path: string, init?: { method?: string; body?: unknown }) => Promise<{ status: number; body: any; headers: Headers }>;
}

export async function jiraClient(seed?: number): Promise<JiraClient> {
  const sandbox = await startSandbox(seed === undefined ? {} : { seed });
  const { email, apiToken } = sandbox.credentials.atlassian;
  const authorization = `Basic ${Buffer.from(`${email}:${apiToken}`).toString("base64")}`;
  const call: JiraClient["call"] = async (path, init = {}) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method: init.method ?? "GET",
      headers: { authorization, accept: "application/json", ...(init.body !== undefined ? { "content-type": "application/json" } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  return { sandbox, call };
}

export const q = (jql: string) => encodeURIComponent(jql);
