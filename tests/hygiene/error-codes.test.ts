/**
 * Error codes are written by name (issue 30): ERROR_CODES in src/engine/errors.ts is the one table
 * of codes, and no other non-test source under src/ writes a code as a number. A number counts as
 * an error code when it is one of the table's values and stands where a code goes: the first
 * argument of `new TracelabError(…)`, the code argument of `jsonError(status, code, …)` and
 * `new ApiClientError(status, code, …)`, the value
 * of a `code:` property, or a side of a comparison with `code` / `….code` (also `case` labels of a
 * switch on one). Found with the TypeScript parser, so comments and strings do not count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { ERROR_CODES } from '../../src/engine/errors.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TABLE = 'src/engine/errors.ts';
const CODES = new Set<number>(Object.values(ERROR_CODES));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The value of a numeric literal, also negated (`-1`); undefined for anything else. */
function numberOf(node: ts.Node): number | undefined {
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) return -Number(node.operand.text);
  if (ts.isParenthesizedExpression(node)) return numberOf(node.expression);
  return undefined;
}

function isCodeExpression(node: ts.Node): boolean {
  return (ts.isIdentifier(node) && node.text === 'code') || (ts.isPropertyAccessExpression(node) && node.name.text === 'code');
}

function calleeName(node: ts.CallExpression | ts.NewExpression): string {
  const e = node.expression;
  return ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : '';
}

/** `file:line: text` of every error code written as a number in `file`. */
export function rawCodes(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (node: ts.Node) => {
    const value = numberOf(node);
    if (value === undefined || !CODES.has(value)) return;
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found.push(`${file}:${line + 1}: ${text.split('\n')[line]!.trim()}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && calleeName(node) === 'TracelabError' && node.arguments?.[0]) report(node.arguments[0]);
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && ['jsonError', 'ApiClientError'].includes(calleeName(node)) && node.arguments?.[1]) report(node.arguments[1]);
    if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) && node.name.text === 'code') report(node.initializer);
    if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(node.operatorToken.kind)) {
      if (isCodeExpression(node.left)) report(node.right);
      if (isCodeExpression(node.right)) report(node.left);
    }
    if (ts.isSwitchStatement(node) && isCodeExpression(node.expression)) {
      for (const clause of node.caseBlock.clauses) if (ts.isCaseClause(clause)) report(clause.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('error codes by name', () => {
  it('the table has one name per code', () => {
    expect(CODES.size).toBe(Object.keys(ERROR_CODES).length);
  });

  it('no non-test source under src/ writes an error code as a number (outside the table)', () => {
    const found = sourceFiles(join(ROOT, 'src'))
      .map((f) => relative(ROOT, f))
      .filter((f) => f !== TABLE)
      .flatMap((f) => rawCodes(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the check finds each kind of raw code (and not names, strings or comments)', () => {
    const sample = [
      "throw new TracelabError(1019, 400, 'x');",
      'const e = new TracelabError(-3, 503, "x");',
      'return jsonError(413, 1012, "x");',
      'throw new ApiClientError(res.status, -1, "x");',
      'return { code: 0, message: "x" };',
      'if (err.code === 1011) retry();',
      'if (-1 !== code) retry();',
      'switch (e.code) { case 1006: break; }',
      // Not raw codes:
      'throw new TracelabError(ERROR_CODES.parameterError, 400, "code 1019");',
      '// error 1012 when too large',
      'if (code === 257) stop();',
      'const size = 1024;',
    ].join('\n');
    expect(rawCodes('sample.ts', sample).map((l) => Number(l.split(':')[1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
