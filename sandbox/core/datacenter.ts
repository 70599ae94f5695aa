import type { Reply } from "./http";
import { errorReply, type Service } from "./errors";

/**
 * The Data Center flavour's context paths. On Data Center each product is its own server, often
 * under a context path (`https://example.com/jira`); the sandbox serves the three under these, so
 * every client of it meets a context path, and Cloud's paths (`/rest`, `/wiki`, `/2.0`) stay Cloud's.
 */
export const DC_CONTEXT: Readonly<Record<Service, string>> = { jira: "/dc/jira", confluence: "/dc/confluence", bitbucket: "/dc/bitbucket" };

const SERVICES = Object.keys(DC_CONTEXT) as Service[];

/** A Data Center path: its service and the path under the context path (`/rest/api/2/…`); null for any other path. */
export function dataCenterPath(path: string): { service: Service; inner: string } | null {
  if (!path.startsWith("/dc/")) return null;
  for (const service of SERVICES) {
    const context = DC_CONTEXT[service];
    if (path === context || path.startsWith(`${context}/`)) return { service, inner: path.slice(context.length) || "/" };
  }
  return null;
}

/**
 * Each Data Center product's own error body. Jira DC and Confluence DC answer as their clouds do
 * (`errorMessages`/`errors`; `statusCode`/`message`); Bitbucket DC (REST 1.0) answers
 * `{"errors":[{"context", "message", "exceptionName"}]}`.
 */
export function dcErrorReply(
  service: Service,
  status: number,
  message: string,
  headers?: Record<string, string>,
  fieldErrors?: Record<string, string>,
): Reply {
  if (service !== "bitbucket") return errorReply(service, status, message, headers, fieldErrors);
  const errors = fieldErrors
    ? Object.entries(fieldErrors).map(([context, m]) => ({ context, message: m, exceptionName: null }))
    : [{ context: null, message, exceptionName: BITBUCKET_EXCEPTIONS[status] ?? null }];
  return { status, headers, body: { errors } };
}

/** The exception names Bitbucket Server/DC reports for the common statuses. */
const BITBUCKET_EXCEPTIONS: Record<number, string> = {
  400: "com.atlassian.bitbucket.validation.ArgumentValidationException",
  401: "com.atlassian.bitbucket.auth.AuthorisationException",
  403: "com.atlassian.bitbucket.AuthorisationException",
  404: "com.atlassian.bitbucket.NoSuchEntityException",
  409: "com.atlassian.bitbucket.pull.PullRequestOutOfDateException",
  429: "com.atlassian.bitbucket.throttle.ThrottledException",
};

export const bitbucketDcError = (status: number, message: string, fieldErrors?: Record<string, string>) =>
  dcErrorReply("bitbucket", status, message, undefined, fieldErrors);
