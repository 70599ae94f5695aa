import type { Reply } from "./http";

export type Service = "jira" | "confluence" | "bitbucket";

/** Which imitated service a path belongs to: Jira and Agile under /rest, Confluence under /wiki, Bitbucket under /2.0. */
export function serviceOf(path: string): Service | null {
  if (path.startsWith("/rest/")) return "jira";
  if (path.startsWith("/wiki/")) return "confluence";
  if (path.startsWith("/2.0/") || path === "/2.0") return "bitbucket";
  return null;
}

/** Each service's own error body, as its REST API reference shows it. */
export function errorReply(
  service: Service | null,
  status: number,
  message: string,
  headers?: Record<string, string>,
  fieldErrors?: Record<string, string>,
): Reply {
  switch (service) {
    case "jira":
      return { status, headers, body: { errorMessages: fieldErrors ? [] : [message], errors: fieldErrors ?? {} } };
    case "confluence":
      return {
        status,
        headers,
        body: {
          statusCode: status,
          data: { authorized: status !== 401 && status !== 403, valid: status < 500, errors: [], successful: false },
          message,
        },
      };
    case "bitbucket":
      return { status, headers, body: { type: "error", error: { message, ...(fieldErrors ? { fields: fieldErrors } : {}) } } };
    default:
      return { status, headers, body: { error: message } };
  }
}

export const jiraError = (status: number, message: string, fieldErrors?: Record<string, string>) =>
  errorReply("jira", status, message, undefined, fieldErrors);
export const confluenceError = (status: number, message: string) => errorReply("confluence", status, message);
export const bitbucketError = (status: number, message: string, fieldErrors?: Record<string, string>) =>
  errorReply("bitbucket", status, message, undefined, fieldErrors);
