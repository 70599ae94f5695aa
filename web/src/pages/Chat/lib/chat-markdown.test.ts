import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { Root } from "hast";
import { describe, expect, it } from "vitest";
import { ChatMarkdown } from "../components/chat-markdown";
import { rehypeHighlightCode } from "./highlight";

const render = (text: string) => renderToStaticMarkup(createElement(ChatMarkdown, { text }));

describe("the chat's Markdown", () => {
  it("renders lists, tables and code, each table in its own scrolling box", () => {
    const html = render("- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x: number = 1;\n```");
    expect(html).toContain("<ul>");
    expect(html).toMatch(/<div class="chat-md-table"><table>/);
    expect(html).toContain('<code class="language-ts hljs">');
    expect(html).toContain('<span class="hljs-keyword">const</span>');
  });

  it("never renders raw HTML nor script URLs, and opens links in a new tab without an opener", () => {
    const html = render(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[bad](javascript:alert(1)) [good](https://jira.example.com/browse/BK-1)',
    );
    expect(html).not.toMatch(/<script|<img|onerror=|javascript:/i);
    expect(html).toContain('<a href="https://jira.example.com/browse/BK-1" target="_blank" rel="noopener noreferrer">good</a>');
  });
});

describe("rehypeHighlightCode", () => {
  const block = (className: string[] | undefined, value: string): Root => ({
    type: "root",
    children: [
      {
        type: "element",
        tagName: "pre",
        properties: {},
        children: [{ type: "element", tagName: "code", properties: className ? { className } : {}, children: [{ type: "text", value }] }],
      },
    ],
  });
  const code = (tree: Root) =>
    (tree.children[0] as { children: { properties: { className?: unknown }; children: unknown[] }[] }).children[0]!;

  it("highlights the registered languages and their aliases", () => {
    for (const lang of ["language-sql", "language-sh", "language-yml", "language-py", "language-json"]) {
      const tree = block([lang], "select 1 -- x\n");
      rehypeHighlightCode()(tree);
      expect(code(tree).properties.className).toEqual([lang, "hljs"]);
    }
  });

  it("leaves other languages, unlabelled blocks and inline code as plain text", () => {
    for (const classes of [["language-cobol"], undefined]) {
      const tree = block(classes, "MOVE A TO B.");
      rehypeHighlightCode()(tree);
      expect(code(tree).children).toEqual([{ type: "text", value: "MOVE A TO B." }]);
    }
    const inline: Root = {
      type: "root",
      children: [
        {
          type: "element",
          tagName: "p",
          properties: {},
          children: [
            { type: "element", tagName: "code", properties: { className: ["language-ts"] }, children: [{ type: "text", value: "const" }] },
          ],
        },
      ],
    };
    rehypeHighlightCode()(inline);
    expect(JSON.stringify(inline)).not.toContain("hljs");
  });
});
