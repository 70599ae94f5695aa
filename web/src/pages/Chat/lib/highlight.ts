/**
 * Syntax highlighting for the chat's code blocks: a rehype plugin over lowlight with a handful of
 * common languages. rehype-highlight imports lowlight's 37 "common" grammars whatever it is told,
 * so the chat chunk uses lowlight directly and registers only these (lowlight is side-effect free:
 * the rest is shaken out). A block in another language, or none, stays plain text.
 */
import type { Element, ElementContent, Root } from "hast";
import bash from "highlight.js/lib/languages/bash";
import diff from "highlight.js/lib/languages/diff";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { createLowlight } from "lowlight";

const lowlight = createLowlight({ bash, diff, java, javascript, json, python, sql, typescript, xml, yaml });
lowlight.registerAlias({
  bash: ["sh", "shell", "zsh", "console"],
  javascript: ["js", "jsx", "mjs"],
  typescript: ["ts", "tsx"],
  xml: ["html", "svg"],
  yaml: ["yml"],
  python: ["py"],
});

/** The language a fenced block names (`language-ts`), if it is one we highlight. */
function languageOf(code: Element): string | null {
  const classes = code.properties.className;
  if (!Array.isArray(classes)) return null;
  for (const c of classes) {
    if (typeof c === "string" && c.startsWith("language-")) {
      const name = c.slice("language-".length).toLowerCase();
      return lowlight.registered(name) ? name : null;
    }
  }
  return null;
}

const textOf = (node: ElementContent): string =>
  node.type === "text" ? node.value : node.type === "element" ? node.children.map(textOf).join("") : "";

function walk(node: Root | Element): void {
  for (const child of node.children) {
    if (child.type !== "element") continue;
    if (child.tagName === "code" && node.type === "element" && node.tagName === "pre") {
      const language = languageOf(child);
      if (!language) continue;
      const result = lowlight.highlight(language, child.children.map(textOf).join(""));
      child.children = result.children as ElementContent[];
      child.properties.className = [...(child.properties.className as string[]), "hljs"];
    } else walk(child);
  }
}

export function rehypeHighlightCode() {
  return (tree: Root) => walk(tree);
}
