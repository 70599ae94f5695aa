import type { Language } from "./model";

/** Helpers shared by the per-language file templates of the seeded repositories. */

export interface RepoInfo {
  slug: string;
  name: string;
  description: string;
  language: Language;
  /** The main noun of the service: "gateway", "invoice", "feature"... */
  resource: string;
  port: number;
}

export const pascal = (s: string) => s.replace(/(^|[-_])(\w)/g, (_m, _sep: string, c: string) => c.toUpperCase());
export const camel = (s: string) => {
  const p = pascal(s);
  return p.charAt(0).toLowerCase() + p.slice(1);
};
export const snake = (s: string) => s.replace(/-/g, "_");

export const readme = (r: RepoInfo, install: string, run: string) => `# ${r.name}

${r.description}

## Getting started

\`\`\`bash
${install}
${run}
\`\`\`

The service listens on port ${r.port} by default.

## Configuration

| Variable | Default | Description |
| --- | --- | --- |
| \`PORT\` | \`${r.port}\` | HTTP port |
| \`LOG_LEVEL\` | \`info\` | Log verbosity |
| \`${snake(r.resource).toUpperCase()}_CACHE_TTL\` | \`300\` | Seconds a ${r.resource} stays cached |

## Notes

- Owned by the ${r.name} team; ask in #${r.slug} for reviews.
- Deployed on every merge to \`main\`.
`;

export const changelog = (r: RepoInfo) => `# Changelog

All notable changes to ${r.name} are documented here.

## Unreleased

- Initial import of ${r.slug}.
`;
