/**
 * Finds where the provider's source formats a name into text without `Secrecy`: a
 * command's, option's or choice's name (`x.name`, `x["name"]`), a permissions entry's
 * command (`x.command`) or a key made of a name (`x.key`), put into a template string or
 * joined with `+` to a string, outside a call of `Secrecy`'s `quote` or `text` (which
 * show a value at a secret path as `[secret]`). The rule it serves is in
 * messageSecrecy.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { parse, ROOT, sourceFiles } from "./structure";

/** The properties that hold a name a program may mark secret. */
const NAMED = new Set(["name", "command", "key"]);

/** One place a name is formatted raw: `file:line: expression`. */
export type Finding = string;

/** The name-holding property an expression reads, through `String(...)`, if any. */
function namedRead(node: ts.Expression): boolean {
  let e: ts.Expression = node;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) {
    e = e.expression;
  }
  if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "String") {
    const arg = e.arguments[0];
    return arg !== undefined && namedRead(arg);
  }
  if (ts.isPropertyAccessExpression(e)) return NAMED.has(e.name.text);
  if (ts.isElementAccessExpression(e)) {
    const arg = e.argumentExpression;
    return ts.isStringLiteralLike(arg) && NAMED.has(arg.text);
  }
  return false;
}

/** True inside an argument of a call of `quote` or `text` (Secrecy's). */
function throughSecrecy(node: ts.Node): boolean {
  for (let p: ts.Node | undefined = node.parent; p !== undefined; p = p.parent) {
    if (
      ts.isCallExpression(p) &&
      ts.isPropertyAccessExpression(p.expression) &&
      ["quote", "text"].includes(p.expression.name.text) &&
      p.arguments.some((a) => a.pos <= node.pos && node.end <= a.end)
    ) {
      return true;
    }
  }
  return false;
}

const isText = (e: ts.Expression): boolean =>
  ts.isStringLiteralLike(e) || ts.isTemplateExpression(e);

/** The expressions of `source` that format a name raw. */
export function rawNames(source: ts.SourceFile): ts.Expression[] {
  const found: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTemplateSpan(node) && namedRead(node.expression)) found.push(node.expression);
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.PlusToken &&
      ((namedRead(node.left) && isText(node.right)) || (namedRead(node.right) && isText(node.left)))
    ) {
      found.push(namedRead(node.left) ? node.left : node.right);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((e) => !throughSecrecy(e));
}

/**
 * Every raw name in the provider's source (`provider/`, but `provider/package/`, which
 * writes the package schema and its reference, not messages), as `file:line: expression`.
 */
export function rawNamesInProvider(root: string = ROOT): Finding[] {
  return sourceFiles(root)
    .filter((f) => f.startsWith("provider/") && !f.startsWith("provider/package/"))
    .flatMap((file) => {
      const source = parse(file, fs.readFileSync(path.join(root, file), "utf8"));
      return rawNames(source).map((e) => {
        const line = source.getLineAndCharacterOfPosition(e.getStart()).line + 1;
        return `${file}:${line}: ${e.getText()}`;
      });
    });
}
