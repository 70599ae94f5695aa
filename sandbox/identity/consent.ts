import { escapeHtml, htmlReply } from "../core/html";
import type { Reply } from "../core/http";

/**
 * The consent pages of the imitated authorization servers: script-free forms (core/html.ts) where
 * a person says who they are (a radio list of the sandbox's accounts), which site (Atlassian), and
 * accepts or refuses. Every control has a visible label, so a browser test can pick a person by
 * name and press a button by its text.
 */

export interface ConsentAccount {
  accountId: string;
  displayName: string;
  /** Shown beside the name: the email (on Data Center, the username). */
  email: string;
}

export interface ConsentSite {
  cloudId: string;
  label: string;
}

export interface ConsentForm {
  /** The page's title and heading. */
  title: string;
  /** Where the form posts. */
  action: string;
  /** The authorization request's parameters, posted back unchanged. */
  hidden: Record<string, string>;
  scopes: string[];
  accounts: ConsentAccount[];
  /** Atlassian only: the sites to choose from, the first selected. */
  sites?: ConsentSite[];
  acceptLabel: string;
  cancelLabel: string;
  /** A problem with the last submission (no person chosen). */
  problem?: string;
}

const FORM_STYLE = `<style>form{margin-top:1rem}fieldset{border:1px solid #dfe1e6;margin:0 0 1rem;padding:.5rem 1rem}
legend{font-weight:600}label{display:block;padding:.25rem 0}.email{color:#5e6c84}button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}
.problem{color:#bf2600;font-weight:600}</style>`;

const hiddenFields = (hidden: Record<string, string>) =>
  Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");

export function consentPage(form: ConsentForm): Reply {
  const accounts = form.accounts
    .map(
      (a, i) =>
        `<label for="account-${i}"><input type="radio" id="account-${i}" name="account" value="${escapeHtml(a.accountId)}" required> ` +
        `${escapeHtml(a.displayName)} <span class="email">${escapeHtml(a.email)}</span></label>`,
    )
    .join("");
  const sites = form.sites
    ? `<fieldset><legend>Site</legend>${form.sites
        .map(
          (s, i) =>
            `<label for="site-${i}"><input type="radio" id="site-${i}" name="site" value="${escapeHtml(s.cloudId)}"${i === 0 ? " checked" : ""}> ` +
            `${escapeHtml(s.label)}</label>`,
        )
        .join("")}</fieldset>`
    : "";
  const scopes = form.scopes.length
    ? `<p>It asks for:</p><ul>${form.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join("")}</ul>`
    : "";
  const problem = form.problem ? `<p class="problem" role="alert">${escapeHtml(form.problem)}</p>` : "";
  return htmlReply(
    form.title,
    `${FORM_STYLE}${problem}${scopes}<form method="post" action="${escapeHtml(form.action)}">${hiddenFields(form.hidden)}` +
      `<fieldset><legend>Who are you?</legend>${accounts}</fieldset>${sites}` +
      `<button type="submit" name="decision" value="accept">${escapeHtml(form.acceptLabel)}</button>` +
      `<button type="submit" name="decision" value="cancel" formnovalidate>${escapeHtml(form.cancelLabel)}</button></form>`,
    form.problem ? 400 : 200,
  );
}

/** A refused authorization request: an error page, never a redirect (its redirect URI is not trusted). */
export const authorizeErrorPage = (message: string): Reply =>
  htmlReply("Something went wrong", `<p role="alert">${escapeHtml(message)}</p>`, 400);

/** `uri` with the query parameters added (an existing query is kept). */
export function redirectTo(uri: string, params: Record<string, string | undefined>): Reply {
  const url = new URL(uri);
  // Percent-encoded as the real servers send them (`User%20did%20not…`, not `User+did+not…`).
  const extra = Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
  url.search = url.search ? `${url.search}&${extra}` : `?${extra}`;
  return { status: 302, headers: { location: url.toString(), "cache-control": "no-store" } };
}

/** An absolute http(s) URL without a fragment, as a redirect_uri must be. */
export function validRedirectUri(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hash === "" ? raw : null;
  } catch {
    return null;
  }
}
