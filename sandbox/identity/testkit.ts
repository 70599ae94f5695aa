import { createHash } from "node:crypto";
import type { Sandbox } from "../server";

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read loosely typed JSON bodies */

/** Test helpers for the identity tests: callers' credentials, JSON calls, and the consent form as a browser posts it. */

export const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
export const bearer = (token: string) => `Bearer ${token}`;
export const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export const REDIRECT = "http://127.0.0.1:9/callback";

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export function caller(sandbox: () => Sandbox) {
  const call = async (path: string, init: { method?: string; auth?: string; body?: unknown; form?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = {};
    if (init.auth) headers.authorization = init.auth;
    let body: string | undefined;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    } else if (init.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.body);
    }
    const res = await fetch(`${sandbox().url}${path}`, {
      method: init.method ?? (body ? "POST" : "GET"),
      headers,
      body,
      redirect: "manual",
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // an HTML page or plain text
    }
    return { status: res.status, body: parsed as any, headers: res.headers } satisfies Answer;
  };

  const control = (path: string, body?: unknown) => call(path, { method: body === undefined ? "GET" : "POST", body });

  /** The consent page's form: its action and hidden fields, as a browser would submit them. */
  const consentForm = async (path: string): Promise<{ action: string; fields: Record<string, string>; html: string }> => {
    const page = await call(path);
    if (page.status !== 200) throw new Error(`consent page ${path}: ${page.status}`);
    const html = page.body as string;
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
    const fields: Record<string, string> = {};
    const unescape = (s: string) =>
      s
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&");
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[unescape(m[1]!)] = unescape(m[2]!);
    return { action, fields, html };
  };

  /** Submits a consent page as a person (`account`), pressing `decision`; answers the redirect's URL. */
  const consent = async (path: string, form: Record<string, string>): Promise<URL> => {
    const { action, fields } = await consentForm(path);
    const res = await call(action, { form: { ...fields, ...form } });
    if (res.status !== 302) throw new Error(`consent ${action}: ${res.status} ${String(res.body).slice(0, 300)}`);
    return new URL(res.headers.get("location")!);
  };

  return { call, control, consentForm, consent };
}
