/**
 * Vite plugin: the documentation sections the playground links to, as small static HTML pages.
 * In: the markdown pages under docs/ (repository root). Out: `<outDir>/docs/<slug>.html` for each
 * section in DOC_SECTIONS (build), and the same pages from the dev server. The page used to link
 * to `README.md#…`, which the built site does not contain (a 404 on every static host).
 * The markdown subset the docs use is rendered here: headings, paragraphs, lists, fenced code,
 * `code` spans and [links](https://…) (a relative link becomes its text: the markdown pages are
 * not part of the site); everything else is escaped text.
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import type { Plugin } from 'vite';

/** Section heading (`## heading` in `file`, from the repository root) → page slug under docs/ of the site. */
export const DOC_SECTIONS: Readonly<Record<string, { readonly file: string; readonly slug: string }>> = {
  'Remote mode and CORS': { file: 'docs/service.md', slug: 'remote-mode-and-cors' },
};

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2">$1</a>')
    .replace(/\[([^\]]+)\]\([^)\s]+\)/g, '$1');
}

/** The text of `## heading` in a markdown page up to the next `## ` heading, or undefined. */
export function readmeSection(readme: string, heading: string): string | undefined {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start < 0) return undefined;
  let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  if (end < 0) end = lines.length;
  return lines.slice(start, end).join('\n');
}

export function renderMarkdown(markdown: string): string {
  const out: string[] = [];
  const blocks = markdown.split(/^```[^\n]*\n([\s\S]*?)^```\s*$/m);
  blocks.forEach((block, i) => {
    if (i % 2 === 1) {
      out.push(`<pre><code>${escapeHtml(block)}</code></pre>`);
      return;
    }
    for (const para of block.split(/\n\s*\n/)) {
      const text = para.trim();
      if (text === '') continue;
      const heading = /^(#{1,4})\s+(.*)$/.exec(text);
      if (heading && !text.includes('\n')) out.push(`<h${heading[1]!.length}>${inline(heading[2]!)}</h${heading[1]!.length}>`);
      else if (/^[-*] /.test(text)) {
        const items = text.split(/\n(?=[-*] )/).map((item) => `<li>${inline(item.replace(/^[-*] /, ''))}</li>`);
        out.push(`<ul>${items.join('')}</ul>`);
      } else if (text.startsWith('|')) out.push(`<pre>${escapeHtml(text)}</pre>`);
      else out.push(`<p>${inline(text)}</p>`);
    }
  });
  return out.join('\n');
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tracelab — ${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:1rem auto;padding:0 1rem;overflow-wrap:anywhere}pre{white-space:pre-wrap;background:#f4f4f4;padding:.5rem}code{font-size:.9em}</style>
</head><body>
<p><a href="../">← Tracelab playground</a></p>
${body}
</body></html>
`;
}

export function docPages(root: string): Map<string, string> {
  const pages = new Map<string, string>();
  for (const [heading, { file, slug }] of Object.entries(DOC_SECTIONS)) {
    const section = readmeSection(readFileSync(resolve(root, file), 'utf8'), heading);
    if (section === undefined) throw new Error(`${file} has no section "## ${heading}" (scripts/vite-readme-docs.ts)`);
    pages.set(`docs/${slug}.html`, page(heading, renderMarkdown(section)));
  }
  return pages;
}

export function readmeDocs(): Plugin {
  let root = process.cwd();
  return {
    name: 'tracelab-readme-docs',
    configResolved(config) {
      root = config.root;
    },
    generateBundle() {
      for (const [fileName, source] of docPages(root)) this.emitFile({ type: 'asset', fileName, source });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0]!;
        const hit = [...docPages(root)].find(([fileName]) => path.endsWith(`/${fileName}`));
        if (hit === undefined) return next();
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.end(hit[1]);
      });
    },
  };
}
