import { errorForStatus, type UpstreamResponse } from "./http";
import type { JiraBulkCreated } from "./jira.client";

/** What the Cloud and the Data Center shapes of the Jira client do alike. */

/** The multipart body of an attachment upload (part "file"); Jira asks for `X-Atlassian-Token: no-check` on it. */
export function attachmentForm(file: { filename: string; mimeType: string; data: Uint8Array }): FormData {
  const form = new FormData();
  form.append("file", new Blob([file.data], { type: file.mimeType }), file.filename);
  return form;
}

/**
 * A bulk create's answer: 201 when any was created, 400 with the same body when none was (its
 * per-item errors); a 400 without them is a plain refusal.
 */
export function bulkCreated(res: UpstreamResponse<JiraBulkCreated & { errorMessages?: unknown }>): JiraBulkCreated {
  if (res.status === 400 && !Array.isArray(res.data.errors)) throw errorForStatus("jira", 400, res.headers, JSON.stringify(res.data));
  return { issues: res.data.issues ?? [], errors: res.data.errors ?? [] };
}
