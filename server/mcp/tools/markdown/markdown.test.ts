import { describe, expect, it } from "vitest";
import { adfToMarkdown } from "./adf-to-markdown";
import { storageToMarkdown } from "./storage-to-markdown";

describe("ADF to Markdown", () => {
  it("headings, marks, lists, code, mentions, tables and macros", () => {
    const doc = {
      type: "doc",
      version: 1,
      content: [
        { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Context" }] },
        {
          type: "paragraph",
          content: [
            { type: "text", text: "See " },
            { type: "text", text: "the docs", marks: [{ type: "link", attrs: { href: "https://example.com" } }] },
            { type: "text", text: " and " },
            { type: "text", text: "this", marks: [{ type: "strong" }] },
            { type: "mention", attrs: { id: "1", text: "@Ana" } },
          ],
        },
        { type: "bulletList", content: [{ type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "one" }] }] }, { type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "two" }] }] }] },
        { type: "orderedList", content: [{ type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "first" }] }] }] },
        { type: "codeBlock", attrs: { language: "ts" }, content: [{ type: "text", text: "const a = 1;" }] },
        { type: "table", content: [{ type: "tableRow", content: [{ type: "tableHeader", content: [{ type: "paragraph", content: [{ type: "text", text: "A|B" }] }] }] }, { type: "tableRow", content: [{ type: "tableCell", content: [{ type: "paragraph", content: [{ type: "text", text: "1" }] }] }] }] },
        { type: "extension", attrs: { extensionKey: "jira-chart" } },
      ],
    };
    expect(adfToMarkdown(doc)).toBe(["## Context", "See [the docs](https://example.com) and **this**@Ana", "- one\n- two", "1. first", "```ts\nconst a = 1;\n```", "| A\\|B |\n| --- |\n| 1 |", "[macro: jira-chart]"].join("\n\n"));
  });

  it("tolerates strings, nothing and junk", () => {
    expect(adfToMarkdown("plain")).toBe("plain");
    expect(adfToMarkdown(null)).toBe("");
    expect(adfToMarkdown({ nope: true })).toBe("");
    expect(adfToMarkdown({ type: "doc", content: [{ type: "mysteryNode", content: [{ type: "text", text: "kept" }] }] })).toBe("kept");
  });
});

describe("Confluence storage to Markdown", () => {
  it("headings, paragraphs, lists, tables, code macros, other macros, links and entities", () => {
    const xhtml =
      '<h1>Title</h1><p>Hello <strong>world</strong> &amp; <a href="https://x.test">link</a>.</p><ol><li>one</li><li>two</li></ol>' +
      "<table><tbody><tr><th>Owner</th><th>Status</th></tr><tr><td>Ana</td><td>Done</td></tr></tbody></table>" +
      '<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">sh</ac:parameter><ac:plain-text-body><![CDATA[echo <hi>]]></ac:plain-text-body></ac:structured-macro>' +
      '<ac:structured-macro ac:name="toc" /><p><ac:link><ri:page ri:content-title="Runbook" /></ac:link></p>';
    expect(storageToMarkdown(xhtml)).toBe(
      ["# Title", "Hello **world** & [link](https://x.test).", "1. one\n2. two", "| Owner | Status |\n| --- | --- |\n| Ana | Done |", "```sh\necho <hi>\n```", "[macro: toc]", "[[Runbook]]"].join("\n\n"),
    );
  });

  it("keeps the body of info panels and drops unknown tags", () => {
    const md = storageToMarkdown('<ac:structured-macro ac:name="info"><ac:rich-text-body><p>Careful</p></ac:rich-text-body></ac:structured-macro><span>plain</span>');
    expect(md).toContain("> **info:**");
    expect(md).toContain("Careful");
    expect(md).toContain("plain");
  });
});
