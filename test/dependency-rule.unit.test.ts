// The layering of src/ (README: Layout), checked on every run so that it stays true:
//   data -> db;  domain -> data, db;  interface groups -> domain, data, http;  app -> everything.
// Every import and export specifier of every .ts file under src is read with the TypeScript
// compiler's pre-processor (imports, `export ... from`, `import type`, dynamic `import()`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');

/** Domain folders: the rules of the service, reachable from every interface group. */
const DOMAIN = ['channels', 'schedules', 'entitlements', 'access', 'sessions', 'catalog', 'editing', 'apps', 'cache', 'demo', 'guides', 'linear', 'media'];
/** Interface groups: one wire contract each, assembled by src/app.ts from src/groups.ts. */
const GROUPS = ['rest', 'custom', 'compat', 'activity', 'legacy', 'studio', 'notifications', 'live'];
/** Shared by the groups, importing none: HTTP plumbing, wire objects of several groups, logs and metrics. */
const SHARED = ['http', 'presenters', 'observability'];
/** Every folder under src is one of these; a new folder must be placed (the rules then cover it). */
const LAYERS = { data: ['data'], db: ['db'], domain: DOMAIN, groups: GROUPS, shared: SHARED };
/** The one group built on another: older templates' trees are the Custom API's machinery. */
const GROUP_ADAPTS = [{ from: 'compat', to: 'custom' }];

/**
 * Imports that break a rule today and are being moved by someone else; each names its owner.
 * An entry that no longer matches an import fails the test, so the list only shrinks.
 */
/** Known violations being moved; empty now (add one only with the reason and who moves it). */
const PENDING: readonly { from: string; to: string; why: string }[] = [];

/** A file's path relative to the repository, with forward slashes (as PENDING names it). */
const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

interface Import {
  from: string;
  /** A file under src (relative), or the package specifier as written. */
  to: string;
  local: boolean;
}

function resolveLocal(fromFile: string, specifier: string): string {
  const target = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [target, `${target}.ts`, target.replace(/\.js$/, '.ts'), path.join(target, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return relative(candidate);
    } catch {
      // Not this candidate.
    }
  }
  throw new Error(`${relative(fromFile)} imports ${specifier}, which is no file`);
}

function importsOf(file: string): Import[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map(({ fileName }) => {
    const local = fileName.startsWith('.');
    return { from: relative(file), to: local ? resolveLocal(file, fileName) : fileName, local };
  });
}

const FILES = sourceFiles(SRC).map(relative).sort();
const IMPORTS = sourceFiles(SRC).flatMap(importsOf);

const folderOf = (file: string) => file.split('/')[1] ?? '';
const inFolders = (file: string, folders: readonly string[]) => file.startsWith('src/') && folders.includes(folderOf(file));
const isPending = (i: Import) => PENDING.some((p) => p.from === i.from && p.to === i.to);
const show = (imports: Import[]) => imports.map((i) => `${i.from} -> ${i.to}`);

/** The imports of files in `folders` that `allowed` refuses, less the pending ones. */
function violations(folders: readonly string[], allowed: (i: Import) => boolean): string[] {
  return show(IMPORTS.filter((i) => inFolders(i.from, folders) && !allowed(i) && !isPending(i)));
}

const isFastify = (specifier: string) => /^(fastify($|[-/])|@fastify\/)/.test(specifier);

describe('dependency rule', () => {
  it('reads the source tree', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(IMPORTS.some((i) => i.from === 'src/app.ts' && i.to === 'src/groups.ts')).toBe(true);
  });

  it('data modules import only the database layer (and each other, and packages)', () => {
    expect(violations(['data'], (i) => !i.local || inFolders(i.to, ['data', 'db']))).toEqual([]);
  });

  it('SQL is written only in src/data and src/db: no other file imports drizzle-orm or a database driver', () => {
    const isDatabasePackage = (specifier: string) => /^(drizzle-orm($|\/)|pg$|@electric-sql\/)/.test(specifier);
    const outside = IMPORTS.filter((i) => !i.local && isDatabasePackage(i.to) && !inFolders(i.from, ['data', 'db']));
    expect(show(outside)).toEqual([]);
  });

  it('domain folders import no interface group and nothing of Fastify', () => {
    expect(violations(DOMAIN, (i) => (i.local ? !inFolders(i.to, GROUPS) : !isFastify(i.to)))).toEqual([]);
  });

  it('shared HTTP helpers, presenters and observability import no interface group', () => {
    expect(violations(SHARED, (i) => !i.local || !inFolders(i.to, GROUPS))).toEqual([]);
  });

  it('every folder under src is placed in a layer', () => {
    const placed = Object.values(LAYERS).flat();
    const folders = [...new Set(FILES.filter((f) => f.split('/').length > 2).map(folderOf))];
    expect(folders.filter((folder) => !placed.includes(folder))).toEqual([]);
  });

  it('no interface group imports another (compat adapts custom)', () => {
    const allowed = (i: Import) =>
      !i.local || !inFolders(i.to, GROUPS) || folderOf(i.to) === folderOf(i.from) || GROUP_ADAPTS.some((a) => a.from === folderOf(i.from) && a.to === folderOf(i.to));
    expect(violations(GROUPS, allowed)).toEqual([]);
  });

  it('no import cycles between folders', () => {
    const folderEdges = IMPORTS.filter((i) => i.local && i.from.split('/').length > 2 && i.to.split('/').length > 2 && folderOf(i.from) !== folderOf(i.to)).map((i) => ({
      from: folderOf(i.from),
      to: folderOf(i.to),
      local: true,
    }));
    const folders = [...new Set(FILES.filter((f) => f.split('/').length > 2).map(folderOf))];
    expect(cycles(folders, folderEdges)).toEqual([]);
  });

  it('finds and reports a cycle (the check itself)', () => {
    const edge = (from: string, to: string): Import => ({ from, to, local: true });
    const graph = [edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd'), edge('e', 'e')];
    expect(cycles(['a', 'b', 'c', 'd', 'e'], graph)).toEqual(['a -> b -> c -> a', 'e -> e']);
  });

  it('no import cycles between files', () => {
    expect(
      cycles(
        FILES,
        IMPORTS.filter((i) => i.local),
      ),
    ).toEqual([]);
  });

  it('the console (web/) shares only the vocabulary and the API contracts (as types) with the server', () => {
    // Everything else it knows of the server comes over HTTP: no back door into server code.
    // src/vocabulary.ts is plain value lists (platforms, stores, periods) with no imports; the
    // Studio contract and REST's schemas (sign-in, analytics) are read for their types only.
    const WEB = path.join(ROOT, 'web', 'src');
    const CONTRACTS = ['src/studio/contract.ts', 'src/rest/schemas.ts'];
    const consoleFiles = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) return consoleFiles(file);
        return /\.tsx?$/.test(name) ? [file] : [];
      });
    const outside = consoleFiles(WEB).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/^\s*(import|export)\b([^;]*?)\bfrom\s+'(\.[^']*)'/gms)].flatMap(([, , clause, specifier]) => {
        const target = relative(path.resolve(path.dirname(file), specifier!));
        if (target.startsWith('web/')) return [];
        const typeOnly = /^\s*type\b/.test(clause!);
        if (target === 'src/vocabulary.ts') return [];
        return typeOnly && CONTRACTS.includes(target) ? [] : [`${relative(file)} -> ${target}${typeOnly ? '' : ' (not import type)'}`];
      });
    });
    expect(outside).toEqual([]);
  });

  it('the contracts the console reads import only zod, luxon and pure modules (no Fastify, no database)', () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const i of IMPORTS.filter((i) => i.from === file)) {
        if (i.local) visit(i.to);
        else packages.add(i.to);
      }
    };
    for (const contract of ['src/studio/contract.ts', 'src/rest/schemas.ts']) visit(contract);
    expect([...packages].sort()).toEqual(['luxon', 'zod']);
    expect([...seen].filter((file) => inFolders(file, ['db', 'data', 'editing']))).toEqual([]);
  });

  it('every pending exception still exists (remove the entry once the import is gone)', () => {
    const stale = PENDING.filter((p) => !IMPORTS.some((i) => i.from === p.from && i.to === p.to));
    expect(stale).toEqual([]);
  });
});

/**
 * The strongly connected components of more than one file (or a file importing itself), by
 * Tarjan's algorithm; each is reported as one cycle through it, e.g. `a.ts -> b.ts -> a.ts`.
 */
function cycles(files: readonly string[], edges: readonly Import[]): string[] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) {
    next.get(e.from)!.push(e.to);
    // A data file (src/http/openapi-examples.json) is a node that imports nothing.
    if (!next.has(e.to)) next.set(e.to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = ''; w !== v;) {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    }
    if (component.length > 1 || next.get(v)!.includes(v)) found.push(component);
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found.map((component) => cycleThrough(component, next).join(' -> '));
}

/** A shortest way from the component's first file (sorted) back to itself, within the component. */
function cycleThrough(component: string[], next: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of next.get(v)!) {
      if (!members.has(w)) continue;
      if (w === start) {
        const way = [start];
        for (let u = v; u !== start; u = previous.get(u)!) way.splice(1, 0, u);
        return [...way, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
