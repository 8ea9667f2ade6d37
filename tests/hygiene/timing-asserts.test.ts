/**
 * No wall-clock or memory limits in unit tests (issue 30): how fast or how lean something is
 * depends on the machine and on what else runs on it, so a limit in a test is either loose enough
 * to mean nothing or flaky on a busy runner. Tests assert behaviour; times and memory figures
 * belong in the bench (bench/guards.mjs and the other bench/*.mjs tables).
 *
 * The rule, checked with the TypeScript parser over every .ts file under tests/ and every
 * src/**\/*.test.ts: an `expect(A)…toBeLessThan / toBeLessThanOrEqual / toBeGreaterThan /
 * toBeGreaterThanOrEqual(B)` is a timing assertion when A or B
 *   - reads a clock or the memory figures: performance.now(), Date.now(), process.hrtime,
 *     process.memoryUsage, process.resourceUsage, process.cpuUsage, os.freemem — directly or
 *     through a local variable computed from one (followed within the file), or
 *   - names a time or memory figure: `ms`, `elapsed…`, `…Ms`, `…_MS`, `…Mb`, `…MB`, `…_MB`,
 *     `…rss…`, `…heap…` (identifiers and properties; figures made in helpers, such as runOne's `ms`),
 * unless B is the literal 0 (a sign check is no limit). The same comparison written inside the
 * expect, `expect(A < B).toBe(true)` (or `.toBe(false)`, `.toBeTruthy()`, `.toBeFalsy()`,
 * `.toEqual(true)`, with <, <=, > or >=), is one too. Vitest's own timeouts (the last argument
 * of it/test, testTimeout) stay: they bound a hang, they do not measure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const COMPARISONS = new Set(['toBeLessThan', 'toBeLessThanOrEqual', 'toBeGreaterThan', 'toBeGreaterThanOrEqual']);
/** Matchers that take a comparison written inside the expect (`expect(ms < 200).toBe(true)`). */
const TRUTH_MATCHERS = new Set(['toBe', 'toEqual', 'toStrictEqual', 'toBeTruthy', 'toBeFalsy']);
const COMPARISON_OPERATORS = new Set([ts.SyntaxKind.LessThanToken, ts.SyntaxKind.LessThanEqualsToken, ts.SyntaxKind.GreaterThanToken, ts.SyntaxKind.GreaterThanEqualsToken]);
const CLOCK_CALLS = new Set(['performance.now', 'Date.now', 'process.hrtime', 'process.hrtime.bigint', 'process.memoryUsage', 'process.memoryUsage.rss', 'process.resourceUsage', 'process.cpuUsage', 'os.freemem']);
const FIGURE_NAME = /^(ms|elapsed\w*)$|Ms$|_MS$|Mb$|MB$|_MB$|rss|Rss|RSS|heap|Heap/;

function testFiles(dir: string, all: boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'fixtures') out.push(...testFiles(path, all));
    } else if (all ? /\.tsx?$/.test(entry.name) : /\.test\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

function dotted(node: ts.Node): string {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return `${dotted(node.expression)}.${node.name.text}`;
  return '';
}

/** Calls whose result is still the figure given to them (other calls' results are not followed). */
const ARITHMETIC = /^(Math\.\w+|Number|BigInt|String)$/;

/**
 * Whether `node` reads a clock or memory figure, directly or through a variable in `tainted`.
 * Arithmetic on a reading is followed; a reading passed to another function is not (a deadline
 * given to a load loop does not make the loop's counts a measurement).
 */
function readsClock(node: ts.Node, tainted: ReadonlySet<string>): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(n) && CLOCK_CALLS.has(dotted(n.expression))) found = true;
    else if (ts.isPropertyAccessExpression(n) && CLOCK_CALLS.has(dotted(n))) found = true;
    else if (ts.isIdentifier(n) && tainted.has(n.text)) found = true;
    else if (ts.isCallExpression(n) && !ARITHMETIC.test(dotted(n.expression))) visit(n.expression);
    else ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

function namesFigure(node: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(n) && FIGURE_NAME.test(n.text)) found = true;
    else ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** Local variables whose value comes from a clock or memory reading (to a fixed point). */
function taintedNames(sf: ts.SourceFile): Set<string> {
  const tainted = new Set<string>();
  const assignments: [string, ts.Node][] = [];
  const collect = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && n.initializer) {
      if (ts.isIdentifier(n.name)) assignments.push([n.name.text, n.initializer]);
      else for (const e of n.name.elements) if (ts.isBindingElement(e) && ts.isIdentifier(e.name)) assignments.push([e.name.text, n.initializer]);
    }
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment && ts.isIdentifier(n.left)) {
      assignments.push([n.left.text, n.right]);
    }
    ts.forEachChild(n, collect);
  };
  collect(sf);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, value] of assignments) {
      if (!tainted.has(name) && readsClock(value, tainted)) {
        tainted.add(name);
        changed = true;
      }
    }
  }
  return tainted;
}

/** `file:line: text` of every timing assertion in `text`. */
export function timingAssertions(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const tainted = taintedNames(sf);
  const found: string[] = [];
  const isLimit = (subject: ts.Expression, bound: ts.Expression | undefined): boolean => {
    const zero = bound !== undefined && ts.isNumericLiteral(bound) && Number(bound.text) === 0;
    const parts = bound ? [subject, bound] : [subject];
    return !zero && parts.some((p) => readsClock(p, tainted) || namesFigure(p));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const matcher = node.expression.name.text;
      // Walk down `expect(A).not.resolves.toBe…` to the expect call.
      let inner: ts.Expression = node.expression.expression;
      while (ts.isPropertyAccessExpression(inner)) inner = inner.expression;
      if (ts.isCallExpression(inner) && dotted(inner.expression) === 'expect' && inner.arguments[0]) {
        let subject = inner.arguments[0];
        while (ts.isParenthesizedExpression(subject)) subject = subject.expression;
        const limit = COMPARISONS.has(matcher)
          ? isLimit(subject, node.arguments[0])
          : TRUTH_MATCHERS.has(matcher) && ts.isBinaryExpression(subject) && COMPARISON_OPERATORS.has(subject.operatorToken.kind) && isLimit(subject.left, subject.right);
        if (limit) {
          const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
          found.push(`${file}:${line + 1}: ${text.split('\n')[line]!.trim()}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('no timing or memory limits in unit tests', () => {
  it('no test under tests/ or src/ compares a clock or memory reading with a limit (timings go to the bench)', () => {
    const files = [...testFiles(join(ROOT, 'tests'), true), ...testFiles(join(ROOT, 'src'), false)];
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => timingAssertions(relative(ROOT, f), readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('the check finds the forms such limits take (and leaves other comparisons alone)', () => {
    const sample = [
      'const t0 = performance.now();',
      'await work();',
      'expect(performance.now() - t0).toBeLessThan(1000);',
      'const before = process.memoryUsage();',
      'const after = process.memoryUsage();',
      'const grewMb = (after.heapUsed - before.heapUsed) / 2 ** 20;',
      'expect(grewMb).toBeLessThan(16);',
      'expect(out.ms, name).toBeLessThan(HANG_MS);',
      'expect(process.resourceUsage().maxRSS / 1024).toBeLessThan(640);',
      'expect(Date.now() - started).toBeGreaterThanOrEqual(100);',
      'const elapsed = Date.now() - start; expect(elapsed).not.toBeGreaterThan(5);',
      'expect(ms < 200).toBe(true);',
      'expect(performance.now() - t0 <= LIMIT).toBeTruthy();',
      'expect((grewMb > 16)).toEqual(false);',
      // Not timing assertions:
      'expect(result.ms).toBeGreaterThanOrEqual(0);',
      'expect(waits[0]).toBeGreaterThanOrEqual(5000);',
      'expect(shapes.length).toBeLessThan(40);',
      'const deadline = Date.now() + 5000; while (Date.now() < deadline) await tick();',
      'const result = await runLoad(clients, Date.now() + 5000); expect(result.calls).toBeGreaterThan(3);',
      'expect(shapes.length < 40).toBe(true);',
      'expect(result.ms >= 0).toBe(true);',
    ].join('\n');
    expect(timingAssertions('sample.ts', sample).map((l) => Number(l.split(':')[1]))).toEqual([3, 7, 8, 9, 10, 11, 12, 13, 14]);
  });
});
