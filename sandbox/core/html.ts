import type { Reply } from "./http";

/**
 * The small, script-free HTML pages the sandbox serves at the services' web addresses (the links
 * its REST APIs return: an issue's /browse page, a Confluence page, a pull request), so a person
 * following a link sees the object instead of an API error. Every inserted value goes through
 * `escapeHtml`; the CSP forbids scripts, images and everything else but inline styles.
 */

export const escapeHtml = (value: string): string =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#172b4d}
h1{font-size:1.5rem}dt{font-weight:600;float:left;clear:left;width:8rem}dd{margin:0 0 .25rem 8rem}
.body{border-top:1px solid #dfe1e6;margin-top:1rem;padding-top:.5rem}p{white-space:pre-wrap}
pre{background:#f4f5f7;padding:.5rem;overflow:auto}table{border-collapse:collapse}td,th{border:1px solid #dfe1e6;padding:.25rem .5rem}`;

/** A whole document: `title` is text (escaped here), `bodyHtml` is markup already made safe by the caller. */
export function htmlPage(title: string, bodyHtml: string): string {
  const t = escapeHtml(title);
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${t}</title><style>${STYLE}</style></head>\n<body><h1>${t}</h1>\n${bodyHtml}\n</body></html>\n`;
}

export const HTML_HEADERS: Record<string, string> = {
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

export const htmlReply = (title: string, bodyHtml: string, status = 200): Reply => ({
  status,
  text: htmlPage(title, bodyHtml),
  contentType: "text/html; charset=utf-8",
  headers: HTML_HEADERS,
});

/** The page for an address that names nothing: `message` says what does not exist. */
export const notFoundPage = (message: string): Reply => htmlReply("Not found", `<p>${escapeHtml(message)}</p>`, 404);

/** Label/value rows (both escaped); rows without a value are left out. */
export function facts(rows: [string, string | null | undefined][]): string {
  return `<dl>${rows.map(([k, v]) => (v ? `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>` : "")).join("")}</dl>`;
}

/** Plain text as paragraphs (blank lines separate them; single newlines are kept), escaped. */
export function paragraphs(text: string): string {
  const parts = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return `<div class="body">${parts.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}</div>`;
}
