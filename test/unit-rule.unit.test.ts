// The fast loop's rule (`npm run test:unit`, vitest project "unit"): a test named *.unit.test.ts,
// and the console's helper tests in web/src, load no database, no server, no browser and start no
// process, through any chain of imports. This test follows every runtime import (type-only ones are
// erased) from each such file and names the chain that reaches something the rule keeps out.
// A test that needs one of those is an integration test: name it *.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Packages a unit test may not load: databases, servers, browsers, processes. */
const FORBIDDEN_PACKAGES = [
  /^@electric-sql\/pglite/,
  /^pg$/,
  /^drizzle-orm\/(pglite|node-postgres)/,
  /^playwright/,
  /^(fastify|@fastify\/)/,
  /^(node:)?(child_process|cluster|worker_threads|http|https|http2)$/,
];
/** Modules that open a database, build the app or start processes. */
const FORBIDDEN_FILES = ['src/app.ts', 'src/db/connect.ts', 'test/support/db.ts', 'test/support/app.ts', 'test/support/console.ts', 'test/support/processes.ts'];

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(file).isDirectory()) return filesUnder(file, pattern);
    return pattern.test(name) ? [file] : [];
  });
}

/** The same selection as vitest.config.ts's "unit" project. */
const UNIT_FILES = [...filesUnder(path.join(ROOT, 'test'), /\.unit\.test\.ts$/), ...filesUnder(path.join(ROOT, 'web', 'src'), /\.test\.tsx?$/)].sort();

function resolveLocal(fromFile: string, specifier: string): string {
  const target = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, target.replace(/\.js$/, '.ts'), path.join(target, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not this candidate.
    }
  }
  throw new Error(`${relative(fromFile)} imports ${specifier}, which is no file`);
}

/** The specifiers a file loads when it runs: imports and re-exports that are not `type`-only, and import(). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The first chain of runtime imports from `start` to something forbidden, or undefined. */
function forbiddenChain(start: string): string[] | undefined {
  const seen = new Set<string>([start]);
  const queue: string[][] = [[start]];
  while (queue.length > 0) {
    const chain = queue.shift()!;
    const file = chain[chain.length - 1]!;
    for (const specifier of runtimeImports(file)) {
      if (!specifier.startsWith('.')) {
        if (FORBIDDEN_PACKAGES.some((rule) => rule.test(specifier))) return [...chain.map(relative), specifier];
        continue;
      }
      const target = resolveLocal(file, specifier);
      if (FORBIDDEN_FILES.includes(relative(target))) return [...chain, target].map(relative);
      if (!seen.has(target) && /\.tsx?$/.test(target)) {
        seen.add(target);
        queue.push([...chain, target]);
      }
    }
  }
  return undefined;
}

describe('the unit loop', () => {
  it('finds the unit tests', () => {
    expect(UNIT_FILES.length).toBeGreaterThan(10);
  });

  it.each(UNIT_FILES.map(relative))('%s loads no database, server, browser or process', (file) => {
    expect(forbiddenChain(path.join(ROOT, file))?.join(' -> ')).toBeUndefined();
  });

  it('catches a chain to the database (the rule itself works)', () => {
    expect(forbiddenChain(path.join(ROOT, 'test', 'support', 'studio.ts'))).toBeDefined();
  });
});
