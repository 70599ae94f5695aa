/**
 * Atlassian Document Format (Jira descriptions and comments) to Markdown for a model to read
 * (docs/decisions.md#tools-and-client-policy). Unknown nodes keep their text; extensions and macros become a readable marker.
 * https://developer.atlassian.com/cloud/jira/platform/apis/document/structure/
 */
export interface AdfNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  content?: AdfNode[];
}

const isNode = (v: unknown): v is AdfNode => typeof v === "object" && v !== null && typeof (v as { type?: unknown }).type === "string";

function marked(node: AdfNode): string {
  let text = node.text ?? "";
  for (const mark of node.marks ?? []) {
    if (mark.type === "strong") text = `**${text}**`;
    else if (mark.type === "em") text = `_${text}_`;
    else if (mark.type === "code") text = `\`${text}\``;
    else if (mark.type === "strike") text = `~~${text}~~`;
    else if (mark.type === "link" && typeof mark.attrs?.href === "string") text = `[${text}](${mark.attrs.href})`;
  }
  return text;
}

const inline = (nodes: AdfNode[] | undefined): string => (nodes ?? []).map(inlineNode).join("");

function inlineNode(node: AdfNode): string {
  switch (node.type) {
    case "text":
      return marked(node);
    case "hardBreak":
      return "\n";
    case "mention":
      return `@${String(node.attrs?.text ?? node.attrs?.id ?? "someone").replace(/^@/, "")}`;
    case "emoji":
      return String(node.attrs?.text ?? node.attrs?.shortName ?? "");
    case "inlineCard":
      return typeof node.attrs?.url === "string" ? `<${node.attrs.url}>` : "";
    case "status":
      return `[${String(node.attrs?.text ?? "status")}]`;
    case "date":
      return typeof node.attrs?.timestamp === "string" ? new Date(Number(node.attrs.timestamp)).toISOString().slice(0, 10) : "";
    default:
      return inline(node.content);
  }
}

function block(node: AdfNode, indent = ""): string {
  switch (node.type) {
    case "paragraph":
      return indent + inline(node.content);
    case "heading":
      return `${"#".repeat(Math.min(6, Math.max(1, Number(node.attrs?.level ?? 1))))} ${inline(node.content)}`;
    case "bulletList":
    case "orderedList":
      return (node.content ?? [])
        .map((item, i) => {
          const bullet = node.type === "bulletList" ? "-" : `${i + 1}.`;
          const [first, ...rest] = (item.content ?? []).map((c) => block(c, `${indent}  `).trimStart());
          return [`${indent}${bullet} ${first ?? ""}`, ...rest.map((r) => `${indent}  ${r}`)].join("\n");
        })
        .join("\n");
    case "codeBlock":
      return `\`\`\`${typeof node.attrs?.language === "string" ? node.attrs.language : ""}\n${inline(node.content)}\n\`\`\``;
    case "blockquote":
      return (node.content ?? []).map((c) => `> ${block(c)}`).join("\n");
    case "rule":
      return "---";
    case "panel":
      return `> **${String(node.attrs?.panelType ?? "note")}:** ${(node.content ?? []).map((c) => block(c)).join(" ")}`;
    case "table":
      return table(node);
    case "mediaSingle":
    case "mediaGroup":
    case "media":
      return "[attachment]";
    case "extension":
    case "bodiedExtension":
    case "inlineExtension":
      return `[macro: ${String(node.attrs?.extensionKey ?? "unknown")}]`;
    default:
      return node.content
        ? node.content.every((c) => c.type === "text")
          ? inline(node.content)
          : node.content.map((c) => block(c, indent)).join("\n\n")
        : (node.text ?? "");
  }
}

function table(node: AdfNode): string {
  const rows = (node.content ?? []).map((row) =>
    (row.content ?? []).map((cell) =>
      (cell.content ?? [])
        .map((c) => block(c))
        .join(" ")
        .replace(/\|/g, "\\|")
        .replace(/\n/g, " "),
    ),
  );
  if (rows.length === 0) return "";
  const width = Math.max(...rows.map((r) => r.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? "").join(" | ")} |`;
  return [line(rows[0]!), line(Array(width).fill("---")), ...rows.slice(1).map(line)].join("\n");
}

/** Markdown for an ADF document (or for a plain string, as the v2 API gives). */
export function adfToMarkdown(doc: unknown): string {
  if (typeof doc === "string") return doc;
  if (!isNode(doc)) return "";
  const blocks = doc.type === "doc" ? (doc.content ?? []) : [doc];
  return blocks
    .map((b) => block(b))
    .filter((s) => s.trim() !== "")
    .join("\n\n")
    .trim();
}
