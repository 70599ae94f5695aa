import { describe, expect, it } from "vitest";
import { adfToMarkdown } from "./adf-to-markdown";
import { storageToMarkdown } from "./storage-to-markdown";
import { markdownToStorage } from "./markdown-to-storage";
import { markedMacros, restoreMacros } from "./macros";

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
        {
          type: "bulletList",
          content: [
            { type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "one" }] }] },
            { type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "two" }] }] },
          ],
        },
        {
          type: "orderedList",
          content: [{ type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "first" }] }] }],
        },
        { type: "codeBlock", attrs: { language: "ts" }, content: [{ type: "text", text: "const a = 1;" }] },
        {
          type: "table",
          content: [
            {
              type: "tableRow",
              content: [{ type: "tableHeader", content: [{ type: "paragraph", content: [{ type: "text", text: "A|B" }] }] }],
            },
            {
              type: "tableRow",
              content: [{ type: "tableCell", content: [{ type: "paragraph", content: [{ type: "text", text: "1" }] }] }],
            },
          ],
        },
        { type: "extension", attrs: { extensionKey: "jira-chart" } },
      ],
    };
    expect(adfToMarkdown(doc)).toBe(
      [
        "## Context",
        "See [the docs](https://example.com) and **this**@Ana",
        "- one\n- two",
        "1. first",
        "```ts\nconst a = 1;\n```",
        "| A\\|B |\n| --- |\n| 1 |",
        "[macro: jira-chart]",
      ].join("\n\n"),
    );
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
      [
        "# Title",
        "Hello **world** & [link](https://x.test).",
        "1. one\n2. two",
        "| Owner | Status |\n| --- | --- |\n| Ana | Done |",
        "```sh\necho <hi>\n```",
        "[macro: toc]",
        "[[Runbook]]",
      ].join("\n\n"),
    );
  });

  it("keeps the body of info panels and drops unknown tags", () => {
    const md = storageToMarkdown(
      '<ac:structured-macro ac:name="info"><ac:rich-text-body><p>Careful</p></ac:rich-text-body></ac:structured-macro><span>plain</span>',
    );
    expect(md).toContain("> **info:**");
    expect(md).toContain("Careful");
    expect(md).toContain("plain");
  });
});

describe("Confluence macros Markdown cannot express: markers on reading, the same macros on writing", () => {
  const chart =
    '<ac:structured-macro ac:name="jira-chart" ac:macro-id="a1"><ac:parameter ac:name="jql">project = BK</ac:parameter><ac:rich-text-body><ac:structured-macro ac:name="status"><ac:parameter ac:name="title">inner</ac:parameter></ac:structured-macro></ac:rich-text-body></ac:structured-macro>';
  const status = (title: string) =>
    `<ac:structured-macro ac:name="status"><ac:parameter ac:name="colour">Green</ac:parameter><ac:parameter ac:name="title">${title}</ac:parameter></ac:structured-macro>`;
  const page =
    `<h2>Plan</h2>${chart}<p>State: ${status("ON TRACK")} and ${status("SHIPPED")}</p>` +
    '<ac:structured-macro ac:name="info"><ac:rich-text-body><p>See <ac:structured-macro ac:name="toc" /></p></ac:rich-text-body></ac:structured-macro>' +
    '<ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[<ac:structured-macro ac:name="fake" /> [macro: status]]]></ac:plain-text-body></ac:structured-macro>';

  it("finds the outermost macros in order, inside panels too, never inside code", () => {
    expect(markedMacros(page).map((m) => m.name)).toEqual(["jira-chart", "status", "status", "toc"]);
    expect(page.slice(markedMacros(page)[0]!.start, markedMacros(page)[0]!.end)).toBe(chart); // its nested macro is part of it
  });

  it("reads each as a marker and writes the very same macros back where the markers still are", () => {
    const md = storageToMarkdown(page);
    expect(md).toBe(
      [
        "## Plan",
        "[macro: jira-chart]",
        "State: [macro: status] and [macro: status]",
        "> **info:** See [macro: toc]",
        '```\n<ac:structured-macro ac:name="fake" /> [macro: status]\n```',
      ].join("\n\n"),
    );
    const edited = `${md.replace("## Plan", "## Plan for Q1")}\n\nA new closing line.`;
    const written = markdownToStorage(edited, page);
    expect(written).toContain(chart);
    expect(written).not.toContain("<p>" + chart); // a block macro replaces its paragraph
    expect(written).toContain(`State: ${status("ON TRACK")} and ${status("SHIPPED")}`); // inline, in order
    expect(written).toContain('<ac:structured-macro ac:name="toc" />');
    expect(written).toContain('<![CDATA[<ac:structured-macro ac:name="fake" /> [macro: status]]]>'); // code untouched
    expect(written).toContain("<h2>Plan for Q1</h2>");
    expect(storageToMarkdown(written)).toBe(edited);
  });

  it("a marker with no macro left stays text; a removed marker removes its macro; without a previous page nothing changes", () => {
    const written = markdownToStorage("[macro: status]\n\n[macro: status]\n\n[macro: status]", page);
    expect(written.match(/ac:name="status"/g)).toHaveLength(2);
    expect(written).toContain("<p>[macro: status]</p>");
    expect(markdownToStorage("Only text now.", page)).toBe("<p>Only text now.</p>");
    expect(markdownToStorage("[macro: toc]")).toBe("<p>[macro: toc]</p>");
    expect(restoreMacros("<p>[macro: toc]</p>", "<p>no macros</p>")).toBe("<p>[macro: toc]</p>");
  });

  it("an unclosed macro runs to the end instead of swallowing nothing or everything twice", () => {
    expect(markedMacros('<p>a</p><ac:structured-macro ac:name="broken"><p>b</p>').map((m) => m.name)).toEqual(["broken"]);
    expect(storageToMarkdown('<p>a</p><ac:structured-macro ac:name="broken"><p>b</p>')).toBe("a\n\n[macro: broken]");
  });
});
