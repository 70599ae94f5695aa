import { Marked } from "marked";
import { restoreMacros } from "./macros";

const escape = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Markdown a model writes → Confluence storage format (XHTML with Confluence's own elements), by
 * marked (MIT) with the renderer taught storage: fenced code becomes the code macro (CDATA body,
 * language kept), images `ac:image`, rules and breaks self-closed, a task list item plain text.
 * Raw HTML in the Markdown is shown as text, never passed into the page. The reverse is
 * storageToMarkdown, so a page written from Markdown reads back as the same Markdown.
 */
const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }) {
      const language = lang?.trim().split(/\s+/)[0];
      return `<ac:structured-macro ac:name="code">${language ? `<ac:parameter ac:name="language">${escape(language)}</ac:parameter>` : ""}<ac:plain-text-body><![CDATA[${text.replaceAll("]]>", "]]]]><![CDATA[>")}]]></ac:plain-text-body></ac:structured-macro>\n`;
    },
    html({ text }) {
      return escape(text);
    },
    hr() {
      return "<hr />\n";
    },
    br() {
      return "<br />";
    },
    image({ href, text }) {
      return `<ac:image${text ? ` ac:alt="${escape(text)}"` : ""}><ri:url ri:value="${escape(href)}" /></ac:image>`;
    },
    checkbox({ checked }) {
      return checked ? "[x] " : "[ ] ";
    },
  },
});

/**
 * `previous`: the page's storage before this write. Its macros come back where the Markdown still
 * has their markers (macros.ts), so a model that edits one paragraph loses no chart or status.
 */
export function markdownToStorage(markdown: string, previous?: string): string {
  const storage = (marked.parse(markdown.replace(/\r\n?/g, "\n"), { async: false }) as string).trim();
  return previous ? restoreMacros(storage, previous) : storage;
}
