/**
 * Stage functions you can read (issue 40): no function in src/engine or src/formats runs over
 * MAX_BODY_LINES lines; a longer one is split into named steps (a stage's driver reads as the list
 * of its steps, each loop over the picture in a function of its own).
 *
 * The rule, checked with the TypeScript parser over every non-test .ts file under src/engine and
 * src/formats: a function's length is the lines its body spans, from the line of its opening brace
 * to the line of its closing one (declarations, methods, arrows and function expressions alike;
 * an inner function counts within its outer one too).
 * ALLOWED lists the functions still over it, each with why; the list only shrinks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = ['src/engine', 'src/formats'];
const MAX_BODY_LINES = 60;

/** `file: name` → why it may still be longer. */
const ALLOWED: Record<string, string> = {
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function functionName(n: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  if (n.name) return n.name.getText(sf);
  if (ts.isVariableDeclaration(n.parent) || ts.isPropertyAssignment(n.parent)) return n.parent.name.getText(sf);
  return '<anonymous>';
}

/** `file: name` → body lines of every function in one source text longer than `limit` lines. */
export function longFunctionsOf(file: string, text: string, limit: number): Map<string, number> {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = new Map<string, number>();
  const visit = (n: ts.Node): void => {
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isConstructorDeclaration(n)) && n.body) {
      const first = sf.getLineAndCharacterOfPosition(n.body.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(n.body.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit) found.set(`${file}: ${functionName(n, sf)}`, lines);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe(`no function over ${MAX_BODY_LINES} lines in src/engine and src/formats`, () => {
  const long = new Map<string, number>();
  for (const f of FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)))) {
    for (const [name, lines] of longFunctionsOf(relative(ROOT, f), readFileSync(f, 'utf8'), MAX_BODY_LINES)) long.set(name, lines);
  }

  it('splits every longer function into named steps', () => {
    expect([...long].filter(([name]) => !(name in ALLOWED)).map(([name, lines]) => `${name} (${lines} lines)`)).toEqual([]);
  });

  it('allows only functions that are still over the limit', () => {
    expect(Object.keys(ALLOWED).filter((name) => !long.has(name))).toEqual([]);
  });

  it('the check measures body lines of every kind of function', () => {
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const sample = [
      `export function long(): void {\n${body(59)}\n}`, // 61 lines with its braces' lines
      `function fits(): void {\n${body(58)}\n}`, // 60 lines: at the limit
      `const arrow = (): void => {\n${body(60)}\n};`,
      `class C {\n  method(): void {\n${body(70)}\n  }\n}`,
    ].join('\n');
    expect(longFunctionsOf('sample.ts', sample, MAX_BODY_LINES)).toEqual(
      new Map([
        ['sample.ts: long', 61],
        ['sample.ts: arrow', 62],
        ['sample.ts: method', 72],
      ]),
    );
  });
});
