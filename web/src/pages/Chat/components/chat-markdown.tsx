import { memo } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { rehypeHighlightCode } from "../lib/highlight";
import "../chat.css";

/**
 * An answer's Markdown (lists, tables, code). Safe by construction: raw HTML in the text is never
 * rendered (no rehype-raw; react-markdown drops it), react-markdown's URL filter drops
 * `javascript:` and the like, and every link opens in a new tab without access to this one.
 */
const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
  // A wide table scrolls inside its own box on a phone, never the page (UI.md).
  table: ({ node: _node, ...props }) => (
    <div className="chat-md-table">
      <table {...props} />
    </div>
  ),
};

const remarkPlugins = [remarkGfm];
const rehypePlugins = [rehypeHighlightCode];

export const ChatMarkdown = memo(function ChatMarkdown({ text }: { text: string }) {
  return (
    <div className="chat-markdown">
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} skipHtml>
        {text}
      </Markdown>
    </div>
  );
});
