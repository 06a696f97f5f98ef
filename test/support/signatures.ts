import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { root } from './imports.js';

/*
 * Signatures of the functions in src/, read from the syntax alone (no type checker: fast, and what a
 * reader sees is what is counted). Used by test/unit/signatures.test.ts, which keeps the whole
 * configuration in app/ and config/ (issue 44: settings handed down in parts) and long positional
 * parameter lists out.
 */

export interface Signature {
  /** src-relative path and line, `src/opensearch/client.ts:12`. */
  readonly at: string;
  readonly name: string;
  readonly params: number;
  /** Parameters (or members of an inline parameter type) typed as the whole `Config`. */
  readonly takesConfig: boolean;
}

const sources = new Map<string, ts.SourceFile>();

/** The syntax tree of `file`, parsed once. */
function parsed(file: string): ts.SourceFile {
  let source = sources.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    sources.set(file, source);
  }
  return source;
}

/** True when `type` names `Config` itself (not a Pick or another part of it). */
function namesConfig(type: ts.TypeNode | undefined): boolean {
  if (!type) return false;
  if (ts.isTypeReferenceNode(type)) {
    const name = type.typeName.getText();
    if (name === 'Config') return true;
    if (name === 'Readonly' && type.typeArguments?.length === 1) return namesConfig(type.typeArguments[0]);
    return false;
  }
  if (ts.isUnionTypeNode(type) || ts.isIntersectionTypeNode(type)) return type.types.some(namesConfig);
  if (ts.isParenthesizedTypeNode(type)) return namesConfig(type.type);
  if (ts.isTypeLiteralNode(type))
    return type.members.some((m) => ts.isPropertySignature(m) && namesConfig(m.type));
  return false;
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node))
    return `${(node.parent as ts.ClassDeclaration).name?.getText()}.constructor`;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

/** Properties (of an interface, a type or a class) and type assertions that hold the whole `Config`. */
export function configHoldersOf(file: string): string[] {
  const source = parsed(file);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isPropertySignature(node) || ts.isPropertyDeclaration(node) || ts.isAsExpression(node)) &&
      namesConfig(node.type)
    ) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      out.push(`${relative(root, file)}:${line} ${node.getText().split('\n')[0]}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every function, method, constructor and arrow function of one file that has a body. */
export function signaturesOf(file: string): Signature[] {
  const source = parsed(file);
  const out: Signature[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node)) &&
      node.body
    ) {
      const params = node.parameters.filter((p) => p.name.getText() !== 'this');
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      out.push({
        at: `${relative(root, file)}:${line}`,
        name: nameOf(node),
        params: params.length,
        takesConfig: params.some((p) => namesConfig(p.type)),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}
