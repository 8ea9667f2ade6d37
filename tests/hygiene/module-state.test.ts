/**
 * State passed, not parked (issue 40): src/engine and src/formats keep no module-level mutable
 * state. Scratch buffers, caches and multi-value results live in context or result structs that
 * the caller makes (per trace, per part, per document) and passes down (segment-path.ts, fit.ts's
 * FitScratch, ramp-samples.ts's RampContext): a reader sees every input of a function in its
 * parameters, and two traces, threads or documents never share a buffer (a caller's TraceScratch,
 * scratch.ts, lends its arrays to the traces it runs one after another, each inside one function).
 *
 * The rule, checked with the TypeScript parser over every non-test .ts file under src/engine and
 * src/formats: a top-level binding is module-level mutable state when
 *   - it is a `let` or `var`, or
 *   - it is a `const` made by `new C(…)` of anything but a typed array, Map, Set or WeakMap (a
 *     builder, a sink, an arena: written through its methods), or
 *   - it is a `const` that code inside a function writes to: an element or property assigned,
 *     incremented or compound-assigned, or a mutating method called on it (set, fill, copyWithin,
 *     push, pop, splice, sort, reverse, shift, unshift, add, delete, clear) — directly or through a
 *     local alias (`const buf = SCRATCH; buf[0] = …`).
 * Tables filled while the module loads (top-level code) and never written after are constants.
 * (A module buffer handed to another function that writes it is not followed: review catches that.)
 * ALLOWED lists the few bindings the rule would count that are constants all the same, with why.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = ['src/engine', 'src/formats'];

/** `file: name` → why it is a constant although the rule would count it. */
const ALLOWED: Record<string, string> = {
  'src/engine/segment-path.ts: EMPTY_PATH': 'an immutable empty SegmentPath (no method writes a path)',
};

const PLAIN_CONTAINERS = /^(Float32Array|Float64Array|Int8Array|Int16Array|Int32Array|Uint8Array|Uint8ClampedArray|Uint16Array|Uint32Array|BigInt64Array|BigUint64Array|Map|Set|WeakMap|WeakSet|Array)$/;
const MUTATORS = new Set(['set', 'fill', 'copyWithin', 'push', 'pop', 'splice', 'sort', 'reverse', 'shift', 'unshift', 'add', 'delete', 'clear']);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const isFunctionLike = (n: ts.Node): boolean =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n);

/** The identifier an expression writes through: `a` of `a`, `a[i]`, `a.b.c`, `(a)`. */
function rootName(e: ts.Expression): string | undefined {
  while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return ts.isIdentifier(e) ? e.text : undefined;
}

/** Names bound by a binding name (identifier or destructuring pattern). */
function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isBindingElement(e) ? boundNames(e.name) : []));
}

/** Names a function declares itself (parameters, variables, inner functions): they hide the module's. */
function localNames(fn: ts.Node): Set<string> {
  const names = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (n !== fn && isFunctionLike(n)) {
      if (ts.isFunctionDeclaration(n) && n.name) names.add(n.name.text);
      return;
    }
    if (ts.isParameter(n) || ts.isVariableDeclaration(n)) for (const name of boundNames(n.name)) names.add(name);
    ts.forEachChild(n, visit);
  };
  visit(fn);
  return names;
}

/** `file: name` of every module-level mutable binding in one source text. */
export function moduleStateOf(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = new Set<string>();
  const constants = new Set<string>();
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of statement.declarationList.declarations) {
      for (const name of boundNames(d.name)) {
        if (!isConst) found.add(name);
        else if (d.initializer && ts.isNewExpression(d.initializer) && !PLAIN_CONTAINERS.test(d.initializer.expression.getText(sf))) found.add(name);
        else constants.add(name);
      }
    }
  }
  // Writes inside functions to a top-level const, directly or through a local alias.
  const visitFunction = (fn: ts.Node, hidden: ReadonlySet<string>): void => {
    const own = localNames(fn);
    const aliases = new Map<string, string>();
    const moduleName = (name: string | undefined): string | undefined => {
      if (name === undefined) return undefined;
      if (aliases.has(name)) return aliases.get(name);
      return constants.has(name) && !own.has(name) && !hidden.has(name) ? name : undefined;
    };
    const innerHidden = new Set([...hidden, ...own]);
    const visit = (n: ts.Node): void => {
      if (n !== fn && isFunctionLike(n)) {
        visitFunction(n, innerHidden);
        return;
      }
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) {
        let init: ts.Expression = n.initializer;
        while (ts.isParenthesizedExpression(init) || ts.isNonNullExpression(init)) init = init.expression;
        const target = ts.isIdentifier(init) ? moduleName(init.text) : undefined;
        if (target) aliases.set(n.name.text, target);
      }
      let written: string | undefined;
      if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment && !ts.isIdentifier(n.left)) {
        written = moduleName(rootName(n.left));
      } else if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)) {
        if (!ts.isIdentifier(n.operand)) written = moduleName(rootName(n.operand));
      } else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && MUTATORS.has(n.expression.name.text)) {
        written = moduleName(rootName(n.expression.expression));
      }
      if (written) found.add(written);
      ts.forEachChild(n, visit);
    };
    ts.forEachChild(fn, visit);
  };
  const visitTop = (n: ts.Node): void => {
    if (isFunctionLike(n)) visitFunction(n, new Set());
    else ts.forEachChild(n, visitTop);
  };
  visitTop(sf);
  return [...found].map((name) => `${file}: ${name}`);
}

describe('no module-level mutable state in src/engine and src/formats', () => {
  const all = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))).flatMap((f) => moduleStateOf(relative(ROOT, f), readFileSync(f, 'utf8')));

  it('keeps scratch, caches and results in structs passed down, never in module bindings', () => {
    expect(all.filter((entry) => !(entry in ALLOWED))).toEqual([]);
  });

  it('allows only constants that are still there', () => {
    expect(Object.keys(ALLOWED).filter((entry) => !all.includes(entry))).toEqual([]);
  });

  it('the check finds the forms parked state takes (and leaves constant tables alone)', () => {
    const sample = [
      'let lineX = 0;', // 1: a let
      'const SCRATCH = new Float64Array(8);', // 2: typed scratch written in a function
      'const CACHE = new WeakMap<object, number>();', // 3: a cache written in a function
      'const RING: number[] = [];', // 4: pushed to
      'const sink = new TextSink(64);', // 5: a builder
      'const TABLE = new Float64Array(4);', // a table filled while loading
      'for (let i = 0; i < 4; i++) TABLE[i] = i * i;',
      'const STEPS = [1, 2, 3];', // read only
      'const ALIASED = new Int32Array(4);', // 10: written through an alias
      'export function f(o: object, SCRATCH_SHADOW: Float64Array): number {',
      '  SCRATCH[0] = 1;',
      '  CACHE.set(o, 1);',
      '  RING.push(TABLE[1]! + STEPS[0]!);',
      '  const buf = ALIASED; buf[2]++;',
      '  const STEPS = [0]; STEPS[0] = 2;', // a local of the same name: not the module's
      '  return SCRATCH_SHADOW[0]!;',
      '}',
    ].join('\n');
    expect(moduleStateOf('sample.ts', sample).sort()).toEqual(['sample.ts: ALIASED', 'sample.ts: CACHE', 'sample.ts: RING', 'sample.ts: SCRATCH', 'sample.ts: lineX', 'sample.ts: sink']);
  });
});
