import { describe, expect, it } from "vitest";
import { markdownToWiki } from "./markdown-to-wiki";
import { wikiToMarkdown } from "./wiki-to-markdown";

const R = String.raw;
const lines = (...l: string[]) => l.join("\n");
/** Equal up to whitespace: the round trips add blank lines between blocks and drop trailing spaces. */
const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * Each construct both ways: [name, wiki, Markdown], where wikiToMarkdown(wiki) is exactly the
 * Markdown and markdownToWiki(Markdown) exactly the wiki.
 */
const CONSTRUCTS: [string, string, string][] = [
  ["headings", lines("h1. Title", "", "h3. Small *print*", "", "h6. Tiny"), lines("# Title", "", "### Small **print**", "", "###### Tiny")],
  ["bold, italic, strike, monospace", "*bold*, _italic_, -strike-, {{mono}}", "**bold**, _italic_, ~~strike~~, `mono`"],
  ["underline, sup, sub, citation", "+under+ ^sup^ ~sub~ ??cite??", "<u>under</u> <sup>sup</sup> <sub>sub</sub> <cite>cite</cite>"],
  ["nested emphasis", "*bold _and italic_*", "**bold _and italic_**"],
  ["emphasis inside words (forced form)", "a{*}b{*}c, a{_}b{_}c, x{^}2{^}", "a**b**c, a*b*c, x<sup>2</sup>"],
  ["monospace with backticks", "{{a `tick`}}", "`` a `tick` ``"],
  ["nested mixed lists", lines("* one", "** one.a", "*# one.a.1", "* two"), lines("- one", "  - one.a", "  1. one.a.1", "- two")],
  [
    "numbered lists",
    lines("# first", "## first.a", "##* bullet", "# second"),
    lines("1. first", "   1. first.a", "      - bullet", "2. second"),
  ],
  [
    "table with markup and pipes in cells",
    lines("||Name||Link||", "|*bold*|[a\\|b|https://x.test/a_b]|", "|{{x\\|y}}| |"),
    lines("| Name | Link |", "| --- | --- |", "| **bold** | [a\\|b](https://x.test/a_b) |", "| `x\\|y` |  |"),
  ],
  ["table without a header row", "|no|header|", lines("|  |  |", "| --- | --- |", "| no | header |")],
  ["code with a language", lines("{code:java}", "int x = a * b; { }", "{code}"), lines("```java", "int x = a * b; { }", "```")],
  [
    "code with a title",
    lines("{code:title=Foo.js|language=js}", "const a = {b: 1};", "{code}"),
    lines('```js title="Foo.js"', "const a = {b: 1};", "```"),
  ],
  ["noformat", lines("{noformat}", "*raw* {text}", "{noformat}"), lines("```", "*raw* {text}", "```")],
  ["multi-paragraph quote", lines("{quote}", "first", "", "second", "{quote}"), lines("> first", ">", "> second")],
  ["one-line quote", "bq. one *line*", "> one **line**"],
  ["panel with a title", lines("{panel:title=My title}", "body *b*", "{panel}"), "> **My title:** body **b**"],
  ["panel without a title", lines("{panel}", "no title", "{panel}"), "> **panel:** no title"],
  ["panel holding a list", lines("{panel:title=Steps}", "* a", "* b", "{panel}"), lines("> **Steps:**", ">", "> - a", "> - b")],
  ["links", "[text|https://example.com/a_b] and [Top|#top]", "[text](https://example.com/a_b) and [Top](#top)"],
  [
    "URL links and bare URLs",
    "[https://example.com] and https://example.com/a_b_c?q=1 now",
    "<https://example.com> and https://example.com/a_b_c?q=1 now",
  ],
  ["mailto", "[mailto:ana@example.com] [Mail|mailto:ana@example.com]", "<mailto:ana@example.com> [Mail](mailto:ana@example.com)"],
  ["mentions", "[~jsmith] and [~accountid:557058:f5b2a8c4]", "@[jsmith] and @[accountid:557058:f5b2a8c4]"],
  [
    "images",
    "!image.png! !image.png|thumbnail! !https://x.test/y.png|alt=Logo!",
    '![](image.png) ![](image.png "thumbnail") ![Logo](https://x.test/y.png)',
  ],
  ["attachments", "[^file.pdf] [Spec|^spec v2.pdf]", "[file.pdf](attachment:file.pdf) [Spec](<attachment:spec v2.pdf>)"],
  ["horizontal rule", lines("above", "", "----", "", "below"), lines("above", "", "---", "", "below")],
  [
    "forced line break and paragraphs",
    lines(R`line\\break`, "next line", "", "new paragraph"),
    lines("line\\", "break", "next line", "", "new paragraph"),
  ],
];

/** Text that only looks like markup, both ways: [name, wiki, Markdown]. */
const LOOKALIKES: [string, string, string][] = [
  ["escaped emphasis", R`\*not bold\* and \_not italic\_`, R`\*not bold\* and \_not italic\_`],
  ["asterisks inside words", R`a*b*c and snake_case_name`, R`a\*b\*c and snake_case_name`],
  ["braces, brackets, pipes", R`\{braces\} \[brackets\] a \| b`, R`{braces} \[brackets\] a \| b`],
  [
    "ordinary punctuation left alone",
    "2-3 days, C++, x^2, -1, a + b, e.g. *nix, Wow! Great!",
    R`2-3 days, C++, x^2, -1, a + b, e.g. \*nix, Wow! Great!`,
  ],
  ["dashes and pluses that would pair", R`\-v and \-x\- and \+y\+`, "-v and -x- and +y+"],
  ["an image lookalike", R`\!not-an-image.png!`, "!not-an-image.png!"],
  ["emoticon lookalikes", R`\(x) \(/) \:) f\(i)`, "(x) (/) :) f(i)"],
  ["a heading lookalike", R`h1\. not a heading`, "h1. not a heading"],
  ["a quote lookalike", R`bq\. not a quote`, "bq. not a quote"],
  ["a wiki list lookalike", R`\# not a list`, R`\# not a list`],
  ["a bullet lookalike", R`\* not a list`, R`\* not a list`],
  ["a dash bullet lookalike", R`\- not a list`, R`\- not a list`],
  ["a Markdown list lookalike", "1. not a list", R`1\. not a list`],
  ["a rule lookalike", R`\-\-\-\-`, R`\----`],
  ["dashes Jira would make en dashes", R`a \-\- b`, "a -- b"],
  ["backslashes", R`C:\temp and C:&#92;*.txt`, R`C:\\temp and C:\\\*.txt`],
  ["entities", R`AT&T and \&amp;`, R`AT&T and \&amp;`],
  ["mention and attachment lookalikes", R`\[~notamention\] and \[^notafile\]`, R`\[\~notamention\] and \[^notafile\]`],
  ["question marks", "really?? yes??", "really?? yes??"],
  ["markup characters in monospace", R`{{\{code\} and \*x\*}}`, "`{code} and *x*`"],
  ["a macro lookalike", R`\{code\} in text`, "{code} in text"],
];

describe("wiki markup ↔ Markdown, construct by construct", () => {
  it.each(CONSTRUCTS)("%s", (_name, wiki, md) => {
    expect(wikiToMarkdown(wiki)).toBe(md);
    expect(markdownToWiki(md)).toBe(wiki);
  });

  it.each(LOOKALIKES)("text that looks like markup: %s", (_name, wiki, md) => {
    expect(wikiToMarkdown(wiki)).toBe(md);
    expect(markdownToWiki(md)).toBe(wiki);
  });

  it("a converter that returns its input fails these expectations", () => {
    const changed = [...CONSTRUCTS, ...LOOKALIKES].filter(([, wiki, md]) => wiki !== md);
    expect(changed.length).toBeGreaterThan(CONSTRUCTS.length);
    for (const [name, wiki, md] of CONSTRUCTS) expect(wiki, name).not.toBe(md);
  });

  it("other Markdown spellings of the same constructs", () => {
    expect(markdownToWiki("*italic* and __bold__ and ***both***")).toBe("_italic_ and *bold* and _*both*_");
    expect(markdownToWiki("* star\n+ plus\n\n3. three\n4. four")).toBe("* star\n\n* plus\n\n# three\n# four");
    expect(markdownToWiki("Title\n=====\n\nSub\n---")).toBe("h1. Title\n\nh2. Sub");
    expect(markdownToWiki("hard  \nbreak")).toBe(R`hard\\break`);
    expect(markdownToWiki("[ref][r]\n\n[r]: https://example.com/ref")).toBe("[ref|https://example.com/ref]");
    expect(markdownToWiki("~~~python\nprint('x')\n~~~")).toBe("{code:python}\nprint('x')\n{code}");
    expect(markdownToWiki("    indented code")).toBe("{noformat}\nindented code\n{noformat}");
    expect(markdownToWiki("a <b>b</b> <i>i</i> <s>s</s> <ins>u</ins> <q>q</q> and <br> break")).toBe(
      R`a *b* _i_ -s- +u+ ??q?? and \\ break`,
    );
    expect(markdownToWiki("- [x] done\n- [ ] todo")).toBe(R`* \[x\] done` + "\n" + R`* \[ \] todo`);
    expect(markdownToWiki("@ana, ana@example.com and www.example.com stay text")).toBe(
      "@ana, ana@example.com and www.example.com stay text",
    );
    expect(markdownToWiki('![img](pic.png "A title, not options")')).toBe("!pic.png|alt=img!");
  });

  it("other wiki spellings of the same constructs", () => {
    expect(wikiToMarkdown("- square bullet\n- another")).toBe("- square bullet\n- another");
    expect(wikiToMarkdown("{code:java|title=Bar.java}\nclass Bar {}\n{code}")).toBe('```java title="Bar.java"\nclass Bar {}\n```');
    expect(wikiToMarkdown("{code}\nno language\n{code}")).toBe("```\nno language\n```");
    expect(wikiToMarkdown("{quote}inline quote{quote}")).toBe("> inline quote");
    expect(wikiToMarkdown("Before {code}x = 1{code} after")).toBe("Before\n\n```\nx = 1\n```\n\nafter");
    expect(wikiToMarkdown("{color:red}Red{color} and {color:#00ff00}green{color}{anchor:here}")).toBe("Red and green");
    expect(wikiToMarkdown("[Ana Li|~ana] [Spec|^spec.pdf] [a|https://x.test|a tip]")).toBe(
      "@[ana] [Spec](attachment:spec.pdf) [a](https://x.test)",
    );
    expect(wikiToMarkdown("[WIP] not a link, [PROJ-1|PROJ-1] is one")).toBe(R`\[WIP\] not a link, [PROJ-1](PROJ-1) is one`);
    expect(wikiToMarkdown("[see [~ana] and [x|http://y]")).toBe(R`\[see @[ana] and [x](http://y)`);
    expect(wikiToMarkdown("a -- b --- c (y) (n) :D")).toBe("a – b — c 👍 👎 😀");
    expect(wikiToMarkdown("|a|b|\n|c|")).toBe("|  |  |\n| --- | --- |\n| a | b |\n| c |  |");
    expect(wikiToMarkdown("||Name|Ana|\n|Role|Dev|")).toBe("|  |  |\n| --- | --- |\n| **Name** | Ana |\n| Role | Dev |");
    expect(wikiToMarkdown("|multi|line\nstill the cell|\nafter")).toBe(
      "|  |  |\n| --- | --- |\n| multi | line<br>still the cell |\n\nafter",
    );
    expect(wikiToMarkdown("* item\ncontinued line\n* next")).toBe("- item\n  continued line\n- next");
    expect(wikiToMarkdown("!photo 1.png! and !x|thumbnail! (no file name)")).toBe(R`![](<photo 1.png>) and !x\|thumbnail! (no file name)`);
    expect(wikiToMarkdown("&lt;tag&gt; &copy; &#169; &unknown;")).toBe(R`\<tag> © © \&unknown;`);
    expect(wikiToMarkdown("h2. Issue #")).toBe(R`## Issue \#`);
  });
});

/** (a) Markdown a model writes: through wiki and back it is the same Markdown. */
const MARKDOWN_CORPUS: [string, string][] = [
  [
    "a release note with every construct",
    lines(
      "# Release plan",
      "",
      "Some **bold**, _italic_, ~~struck~~, `code`, <u>underlined</u>, x<sup>2</sup>, H<sub>2</sub>O and <cite>a source</cite>.",
      "A line\\",
      "with a hard break and [a link](https://example.com/a_b?x=1), <https://example.com>, https://example.com/bare_url and <mailto:ana@example.com>.",
      "",
      "## Lists",
      "",
      "- one",
      "- two with **bold** and [a link](https://x.test)",
      "  - two.a",
      "  1. two.a.1",
      "- three",
      "",
      "1. first",
      "2. second",
      "   1. nested",
      "",
      "| Name | Notes |",
      "| --- | --- |",
      "| **Ana** | see [docs](https://x.test/a_b) |",
      "| `a\\|b` | a \\| b |",
      "",
      "```java",
      "class A { int x = a * b; } // *not bold* {noformat}",
      "```",
      "",
      "```",
      "plain text with {code} and ``` inside",
      "```",
      "",
      "> Quoted **text**.",
      ">",
      "> Second paragraph.",
      "",
      "> **Heads up:** the panel body.",
      "",
      'Ping @[jsmith] and @[accountid:557058:f5b2a8c4], see ![](diagram.png "thumbnail"), ![Logo](https://x.test/logo.png) and [report.pdf](attachment:report.pdf).',
      "",
      "---",
      "",
      R`Literal: \*not bold\*, a\*b\*c, snake_case, {braces}, \[brackets\], 2-3 days, C++, e.g. \*nix, 50% off!`,
    ),
  ],
  ["a nested ordered and bullet list", lines("1. a", "   - b", "     1. c", "   - d", "2. e")],
  ["a table without a header", lines("|  |  |", "| --- | --- |", "| a | **b** |", "| `c` | [d](https://x.test) |")],
  ["a panel with several blocks", lines("> **Release notes:** first", ">", "> - one", "> - two", ">", "> ```sh", "> npm ci", "> ```")],
  ["code that looks like wiki markup", lines("```", "{code}", "*not bold* [not|link] {quote}", "{noformat}", "```")],
  ["emphasis next to punctuation and words", R`(**bold**), "_quoted_", un**believ**able, **a**_b_, x<sup>10</sup>`],
  ["soft line breaks", lines("first **line**", "second line", "", "next paragraph")],
  [
    "URLs with underscores and asterisks",
    "See https://example.com/a_b_c and [x](https://example.com/search?q=a*b) or <https://example.com/_x_>.",
  ],
];

/** Markdown that comes back in its normalised spelling: [name, Markdown, normalised]. */
const NORMALISED: [string, string, string][] = [
  ["emphasis spellings", "*italic* and __bold__", "_italic_ and **bold**"],
  ["bullet spellings", "* a\n* b", "- a\n- b"],
  ["a loose list", "- a\n\n- b", "- a\n- b"],
  ["setext headings", "Title\n=====", "# Title"],
  ["a trailing-spaces hard break", "hard  \nbreak", "hard\\\nbreak"],
  ["tildes fence", "~~~sh\nls\n~~~", "```sh\nls\n```"],
  ["a nested quote", "> outer\n>\n> > inner", "> outer\n>\n> inner"],
  ["a start number", "3. three\n4. four", "1. three\n2. four"],
  ["table alignment and a short row", "| a | b |\n| :-- | --: |\n| 1 |", "| a | b |\n| --- | --- |\n| 1 |  |"],
  ["a task list", "- [x] done", R`- \[x\] done`],
  ["brackets and pipes", "[x] a | b", R`\[x\] a \| b`],
  ["a bare URL ending in an underscore", "see https://x.test/a_b_, ok", R`see <https://x.test/a_b>\_, ok`],
  ["a fenced block with a language holding {code}", "```js\nx = '{code}'\n```", "```\nx = '{code}'\n```"],
];

describe("(a) Markdown → wiki → Markdown", () => {
  it.each(MARKDOWN_CORPUS)("%s", (_name, md) => {
    const wiki = markdownToWiki(md);
    expect(wiki).not.toBe(md);
    expect(wikiToMarkdown(wiki)).toBe(md);
  });

  it.each(NORMALISED)("%s comes back normalised", (_name, md, normalised) => {
    expect(wikiToMarkdown(markdownToWiki(md))).toBe(normalised);
    expect(wikiToMarkdown(markdownToWiki(normalised))).toBe(normalised);
  });

  it("a code body holding both end tags keeps its language and text", () => {
    const md = "```js\nconst tags = ['{code}', '{noformat}'];\n```";
    const wiki = markdownToWiki(md);
    expect(wiki.startsWith("{code:js}\n")).toBe(true);
    expect(wiki.match(/\{code\}/g)).toHaveLength(1); // the inner one is broken by a zero-width space
    expect(wikiToMarkdown(wiki)).toBe(md);
  });
});

/** (b) Wiki markup as Jira DC holds it: through Markdown and back it means the same. */
const BUG_REPORT = lines(
  "h2. Steps to reproduce",
  "# Log in as [~jsmith]",
  "# Open *Settings* then _Profile_",
  "## Change the {{email}} field",
  "##* to something with a + sign",
  "# Save",
  "",
  "h2. Actual",
  "{code:java}",
  "java.lang.NullPointerException: user is null",
  "    at com.example.Profile.save(Profile.java:42) { *ignored* }",
  "{code}",
  "",
  "||Field||Value||Notes||",
  "|Email|{{a+b@example.com}}|*fails* since 2-3 days|",
  "|Docs|[Profile docs|https://docs.example.com/profile_page]|see [^screenshot-1.png]|",
  "|Owner|[~accountid:557058:f5b2a8c4]|",
  "{noformat}",
  "2024-01-01 12:00:00 ERROR [main] *** {id=1}",
  "{noformat}",
  "{quote}",
  "Customer wrote: it worked -yesterday-.",
  "",
  "Second paragraph.",
  "{quote}",
  "{panel:title=Workaround|borderStyle=dashed}",
  "Use the *old* form: !old-form.png|thumbnail!",
  "{panel}",
);

const WIKI_CORPUS: [string, string, string][] = [
  [
    "a bug report",
    BUG_REPORT,
    lines(
      "h2. Steps to reproduce",
      "",
      "# Log in as [~jsmith]",
      "# Open *Settings* then _Profile_",
      "## Change the {{email}} field",
      "##* to something with a + sign",
      "# Save",
      "",
      "h2. Actual",
      "",
      "{code:java}",
      "java.lang.NullPointerException: user is null",
      "    at com.example.Profile.save(Profile.java:42) { *ignored* }",
      "{code}",
      "",
      "||Field||Value||Notes||",
      "|Email|{{a+b@example.com}}|*fails* since 2-3 days|",
      "|Docs|[Profile docs|https://docs.example.com/profile_page]|see [^screenshot-1.png]|",
      "|Owner|[~accountid:557058:f5b2a8c4]| |",
      "",
      "{noformat}",
      "2024-01-01 12:00:00 ERROR [main] *** {id=1}",
      "{noformat}",
      "",
      "{quote}",
      "Customer wrote: it worked -yesterday-.",
      "",
      "Second paragraph.",
      "{quote}",
      "",
      "{panel:title=Workaround}", // the border style is not kept
      "Use the *old* form: !old-form.png|thumbnail!",
      "{panel}",
    ),
  ],
  [
    "a design note",
    lines(
      "h1. Design",
      "The cache keeps *hot* entries for {{ttl}} seconds, see [RFC 9111|https://www.rfc-editor.org/rfc/rfc9111] and https://example.com/cache_docs.",
      "",
      "* Reads go to the cache first",
      "** then to the database",
      "* Writes invalidate",
      "",
      "bq. Premature optimisation is the root of all evil.",
      "",
      "----",
      "",
      "Ask [~ana] or [~accountid:5b10ac8d82e05b22cc7d4ef5]. Diagram: !cache.png! Spec: [^cache-spec.pdf]",
    ),
    "",
  ],
  [
    "a comment with escapes and emoticons",
    lines(R`Use \{\{ and \}\} literally, a \* b, \[not a link\] (/) done, (x) failed, a -- b.`, R`Path C:\temp\new and 2-3 days.`),
    lines(R`Use \{\{ and \}\} literally, a * b, \[not a link\] ✅ done, ❌ failed, a – b.`, R`Path C:\temp\new and 2-3 days.`),
  ],
];

describe("(b) wiki → Markdown → wiki", () => {
  it.each(WIKI_CORPUS)("%s", (_name, wiki, expected) => {
    const md = wikiToMarkdown(wiki);
    expect(md).not.toBe(wiki);
    const back = markdownToWiki(md);
    if (expected) expect(back).toBe(expected);
    else expect(squash(back)).toBe(squash(wiki));
    // Read again, it is the same Markdown: nothing drifts on a second trip.
    expect(wikiToMarkdown(back)).toBe(md);
  });

  it("the bug report reads as the Markdown a model expects", () => {
    const md = wikiToMarkdown(BUG_REPORT);
    expect(md).toContain(
      "1. Log in as @[jsmith]\n2. Open **Settings** then _Profile_\n   1. Change the `email` field\n      - to something with a + sign\n3. Save",
    );
    expect(md).toContain(
      "```java\njava.lang.NullPointerException: user is null\n    at com.example.Profile.save(Profile.java:42) { *ignored* }\n```",
    );
    expect(md).toContain("| Email | `a+b@example.com` | **fails** since 2-3 days |");
    expect(md).toContain(
      "| Docs | [Profile docs](https://docs.example.com/profile_page) | see [screenshot-1.png](attachment:screenshot-1.png) |",
    );
    expect(md).toContain("| Owner | @[accountid:557058:f5b2a8c4] |  |");
    expect(md).toContain("```\n2024-01-01 12:00:00 ERROR [main] *** {id=1}\n```");
    expect(md).toContain("> Customer wrote: it worked ~~yesterday~~.\n>\n> Second paragraph.");
    expect(md).toContain('> **Workaround:** Use the **old** form: ![](old-form.png "thumbnail")');
  });
});

describe("(e) malformed input: text back, no exception, quickly", () => {
  const timed = (convert: (s: string) => string, input: string): { out: string; ms: number } => {
    const start = performance.now();
    const out = convert(input);
    return { out, ms: performance.now() - start };
  };

  it("an unclosed {code}, {noformat}, {quote} or {panel} runs to the end", () => {
    expect(wikiToMarkdown("before\n{code:js}\nconst a = {*b*};")).toBe("before\n\n```js\nconst a = {*b*};\n```");
    expect(wikiToMarkdown("{noformat}\nraw")).toBe("```\nraw\n```");
    expect(wikiToMarkdown("{quote}\nquoted *text*")).toBe("> quoted **text**");
    expect(wikiToMarkdown("{panel:title=T}\nbody")).toBe("> **T:** body");
  });

  it("unclosed emphasis, links, images and monospace are text", () => {
    expect(wikiToMarkdown("*unclosed bold and _unclosed em")).toBe(R`\*unclosed bold and \_unclosed em`);
    expect(wikiToMarkdown("[unclosed link and !unclosed.png and {{mono")).toBe(R`\[unclosed link and !unclosed.png and {{mono`);
    expect(wikiToMarkdown("[~] [^] [] {{}} {*}x")).toBe(R`\[\~\] \[^\] \[\] {{}} {\*}x`);
    expect(wikiToMarkdown("*bold\nacross lines*")).toBe(R`\*bold` + "\n" + R`across lines\*`);
  });

  it("a table row with fewer cells is padded; empty and odd rows survive", () => {
    expect(wikiToMarkdown("||a||b||c||\n|1|\n|1|2|3|4|")).toBe(
      "| a | b | c |  |\n| --- | --- | --- | --- |\n| 1 |  |  |  |\n| 1 | 2 | 3 | 4 |",
    );
    expect(wikiToMarkdown("|\n||")).toBe("");
    expect(wikiToMarkdown("h1.\n\nbq.\n\n*")).toBe("#\n\n\\*");
  });

  it("ten thousand `*`: as text, as list markers, as emphasis; deep lists are capped", () => {
    const stars = timed(wikiToMarkdown, "*".repeat(10_000));
    expect(stars.out.startsWith(R`**\*****\***`)).toBe(true); // `***`: a bold `*`
    expect(stars.out.replace(/[*\\]/g, "")).toBe("");
    expect(stars.out.length).toBeGreaterThan(10_000);
    const deep = timed(wikiToMarkdown, `${"*".repeat(10_000)} item`);
    expect(deep.out.split("\n")).toHaveLength(10); // ten levels, the deepest holding the item
    expect(deep.out.endsWith("- item")).toBe(true);
    const pairs = timed(wikiToMarkdown, "*a ".repeat(10_000));
    expect(pairs.out.startsWith(R`**a** \*a`)).toBe(false);
    expect(pairs.out).toContain("a");
    for (const { ms } of [stars, deep, pairs]) expect(ms).toBeLessThan(5_000);
  });

  it("pathological wiki stays linear", () => {
    for (const input of [
      "[".repeat(20_000),
      "!a.png".repeat(5_000),
      "{code}".repeat(5_000),
      "{{".repeat(10_000),
      "_*-+^~".repeat(5_000),
      "{*}a ".repeat(10_000),
      "|".repeat(10_000),
      `${"|[a".repeat(5_000)}\n`.repeat(2),
      "{quote}{panel}".repeat(3_000),
      "(&#".repeat(10_000),
      "\\".repeat(10_001),
      "https://".repeat(3_000),
      `${"[".repeat(20_000)}]`,
      `${"[".repeat(10_000)}${"\\".repeat(10_000)}]`,
      `http://x${")".repeat(20_000)}`,
      "{quote}{panel:a}{quote}".repeat(5_000),
      "{code:".repeat(10_000),
      "{anchor:".repeat(10_000),
      `${"|a".repeat(5_000)}\n${"|b\n".repeat(5_000)}`,
    ]) {
      const { out, ms } = timed(wikiToMarkdown, input);
      expect(typeof out).toBe("string");
      expect(ms, input.slice(0, 12)).toBeLessThan(5_000);
    }
  });

  it("malformed Markdown", () => {
    expect(markdownToWiki("**unclosed bold")).toBe("**unclosed bold");
    expect(markdownToWiki("```js\nunclosed fence {code}")).toBe("{noformat}\nunclosed fence {code}\n{noformat}");
    expect(markdownToWiki("| a | b |\n| --- | --- |\n| only one |")).toBe("||a||b||\n|only one| |");
    const stars = timed(markdownToWiki, `${"*".repeat(10_000)} item`);
    expect(stars.out).toBe(`${R`\*`.repeat(10_000)} item`);
    expect(stars.ms).toBeLessThan(5_000);
    // marked overflows its stack on quotes nested ten thousand deep: the text goes as text.
    const quotes = timed(markdownToWiki, `${">".repeat(10_000)} deep`);
    expect(quotes.out.endsWith("deep")).toBe(true);
    expect(markdownToWiki("")).toBe("");
    expect(wikiToMarkdown("")).toBe("");
  });
});
