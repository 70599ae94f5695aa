import { adfToMarkdown } from "./adf-to-markdown";
import { markdownToAdf, type AdfDocument } from "./markdown-to-adf";
import { markdownToWiki } from "./markdown-to-wiki";
import { wikiToMarkdown } from "./wiki-to-markdown";

/**
 * Jira's rich text on both deployments (issue 28): Jira Cloud (REST v3) stores Atlassian Document
 * Format, Jira Data Center (REST v2) wiki markup, in the same fields (a description, a comment's
 * body, a work log's or a transition's comment). A tool writes Markdown once, as a `JiraText`;
 * the client of each deployment sends the form its Jira reads.
 */
export interface JiraText {
  /** The ADF document: what JSON.stringify writes, so the Cloud client sends it as it always has, with no walk of the body. */
  toJSON(): AdfDocument;
  /** The wiki markup: the Data Center client puts it in place of every value with a `toWiki` (it does not import this module). */
  toWiki(): string;
}

/** Markdown as Jira rich text, converted to the one form a call needs, when it needs it. */
export function jiraText(markdown: string): JiraText {
  return { toJSON: () => markdownToAdf(markdown), toWiki: () => markdownToWiki(markdown) };
}

/** Markdown for a Jira rich-text value: an ADF document (Cloud), a wiki markup string (Data Center), or nothing. */
export function jiraTextToMarkdown(body: unknown): string {
  return typeof body === "string" ? wikiToMarkdown(body) : adfToMarkdown(body);
}
