import { markdownToAdf as convert } from "marklassian";

/** An Atlassian Document Format document (Jira Cloud v3 rich text). */
export interface AdfDocument {
  version: 1;
  type: "doc";
  content: unknown[];
}

/**
 * Markdown a model writes → the ADF Jira Cloud v3 stores for descriptions and comments, by
 * marklassian (MIT, on marked): headings, emphasis, code, links, lists, tables, quotes, rules.
 * Its reverse is adfToMarkdown, so what a tool writes reads back the same.
 */
export function markdownToAdf(markdown: string): AdfDocument {
  return convert(markdown.replace(/\r\n?/g, "\n")) as AdfDocument;
}
