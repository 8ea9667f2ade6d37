/**
 * Every relative link in README.md and docs/*.md points to a file or folder of the repository, and
 * a `#fragment` to a heading of the markdown file it names (GitHub's heading ids). Links with a
 * scheme (https:, mailto:) are not fetched. Also: the code and scripts that name a README section
 * in words (`README "Fleet"`) name one the README still has.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** The text outside fenced code blocks and inline code spans (links there are not links). */
export function proseOf(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's id for a heading: lower case, markup and punctuation dropped, spaces → '-', repeats get -1, -2 … */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  const outsideCode = markdown.replace(/^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm, '');
  for (const m of outsideCode.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const text = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

interface Link {
  readonly page: string;
  readonly target: string;
}

function linksOf(page: string): Link[] {
  const prose = proseOf(readFileSync(join(root, page), 'utf8'));
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => ({ page, target: m[1]! }));
}

describe('links in README.md and docs/*.md', () => {
  const all = pages.flatMap(linksOf);

  it('finds the links (the README links every docs page)', () => {
    const fromReadme = new Set(all.filter((l) => l.page === 'README.md').map((l) => l.target.split('#')[0]));
    for (const page of pages.filter((p) => p !== 'README.md')) expect(fromReadme, page).toContain(page);
  });

  it('relative links point to existing files inside the repository, fragments to existing headings', () => {
    const broken: string[] = [];
    for (const { page, target } of all) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      const [pathPart, fragment] = target.split('#', 2) as [string, string | undefined];
      const file = pathPart === '' ? join(root, page) : resolve(dirname(join(root, page)), decodeURI(pathPart));
      const where = `${page}: (${target})`;
      if (relative(root, file).startsWith('..')) {
        broken.push(`${where} leaves the repository`);
        continue;
      }
      if (!existsSync(file)) {
        broken.push(`${where}: no such file`);
        continue;
      }
      if (fragment === undefined) continue;
      if (!file.endsWith('.md') || statSync(file).isDirectory()) {
        broken.push(`${where}: a fragment on a file that is not markdown`);
        continue;
      }
      if (!headingIds(readFileSync(file, 'utf8')).has(fragment)) broken.push(`${where}: no heading with id "${fragment}"`);
    }
    expect(broken).toEqual([]);
  });
});

/** Paths written as inline code (`../shared/corpus`), outside fenced blocks: the ones that climb with `../`. */
function codePathsOf(page: string): Link[] {
  const outsideFences = readFileSync(join(root, page), 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm, '');
  return [...outsideFences.matchAll(/`(\.\.\/[^`\s]*)`/g)].map((m) => ({ page, target: m[1]! }));
}

describe('paths in README.md and docs/*.md', () => {
  it('name nothing outside the repository, in a link or in inline code: a clone has only the repository (issue 41: `../shared/…`)', () => {
    const outside: string[] = [];
    for (const { page, target } of pages.flatMap((page) => [...linksOf(page), ...codePathsOf(page)])) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const file = resolve(dirname(join(root, page)), decodeURI(target.split('#', 1)[0]!));
      if (relative(root, file).startsWith('..') || !existsSync(file)) outside.push(`${page}: ${target}`);
    }
    expect(outside).toEqual([]);
  });
});

describe('sections of README.md and docs/*.md named in code, scripts and docs', () => {
  it('exist on the page named', () => {
    const headingsOf = (page: string): Set<string> =>
      new Set([...readFileSync(join(root, page), 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm, '').matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!.trim()));
    const stale: string[] = [];
    const walk = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? (['node_modules', 'results', 'out', 'found'].includes(e.name) ? [] : walk(join(dir, e.name))) : [join(dir, e.name)],
      );
    const files = ['src', 'scripts', 'tests', 'e2e', 'bench', 'deploy', 'docs', 'examples', '.ci'].flatMap((d) => (existsSync(join(root, d)) ? walk(d) : []));
    const self = relative(root, import.meta.filename);
    for (const file of files.filter((f) => f !== self && (/\.(ts|tsx|mjs|js|md|sh|cfg)$/.test(f) || !f.includes('.')))) {
      const text = readFileSync(join(root, file), 'utf8');
      // `README "Fleet"`, `README, "Remote mode and CORS"`, `docs/service.md "Limits and safety"`
      for (const m of text.matchAll(/(README|docs\/[\w-]+\.md)(?:\.md)?(?:'s)?,? ["“]([^"”\n]+)["”]/g)) {
        const page = m[1] === 'README' ? 'README.md' : m[1]!;
        if (!existsSync(join(root, page)) || !headingsOf(page).has(m[2]!)) stale.push(`${file}: ${m[1]} "${m[2]}"`);
      }
    }
    expect(stale).toEqual([]);
  });
});
