// Pointers that resolve (issue 38): every reference in code comments, console text and the docs to
// a file of the repository, a `docs/*.md#anchor`, or a named section ("docs/security.md: What an owner may build",
// "README: Layout") leads somewhere. About 20 led to README sections, notes/ files or docs sections
// that no longer existed; this keeps the next one from going stale unseen.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SCANNED = ['src', 'web/src', 'test', 'bin', 'bench', 'docs'];
const TEXT = /\.(ts|tsx|mjs|md)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test-results', 'fixtures']);

function files(dir: string): string[] {
  const full = path.join(ROOT, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full).flatMap((name) => {
    const rel = path.join(dir, name);
    if (SKIPPED_DIRS.has(name)) return [];
    return statSync(path.join(ROOT, rel)).isDirectory() ? files(rel) : TEXT.test(name) ? [rel] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation out, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

const headingsCache = new Map<string, string[]>();
function headings(file: string): string[] {
  let found = headingsCache.get(file);
  if (!found) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    found = [...text.matchAll(/^#{1,6} +(.+?) *$/gm)].map((m) => m[1]!);
    headingsCache.set(file, found);
  }
  return found;
}

/** A named section: some heading starts with the name (or the name with its last words dropped, as prose runs on). */
function hasSection(file: string, name: string): boolean {
  const wanted = name.toLowerCase().trim();
  return headings(file).some((h) => {
    const heading = h.toLowerCase().replace(/[`*]/g, '');
    return heading === wanted || heading.startsWith(wanted) || wanted.startsWith(heading);
  });
}

const FILE = /(?<![\w./|-])((?:src|test|web|bench|docs|bin|drizzle|deploy|assets|notes)\/[\w.\-/]*\w)/g;
const ANCHOR = /(?<![\w./-])((?:docs\/[\w-]+\.md|README\.md))#([\w-]+)/g;
const SECTION = /(?<![\w./-])(docs\/[\w-]+\.md|README)(?::|,) ((?:[A-Z][\w'-]*)(?: (?:[a-z]{1,4} )?[A-Z][\w'-]*)*)/g;

interface Broken {
  at: string;
  pointer: string;
}

function brokenIn(file: string): Broken[] {
  const broken: Broken[] = [];
  readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const at = `${file}:${i + 1}`;
      for (const m of line.matchAll(FILE)) {
        const target = m[1]!.replace(/[.]+$/, '');
        // Globs (test/studio-*.test.ts, results-{a,b}.md), templates and generated output are not pointers to one file.
        const rest = line.slice(m.index + m[0].length);
        if (/^[\w.-]*[*{]/.test(rest) || /[*{}<>$]/.test(target) || target.startsWith('test-results') || target.includes('/dist/')) continue;
        if (!existsSync(path.join(ROOT, target))) broken.push({ at, pointer: target });
      }
      for (const m of line.matchAll(ANCHOR)) {
        const target = m[1]!;
        if (!existsSync(path.join(ROOT, target)) || !headings(target).some((h) => slug(h) === m[2])) broken.push({ at, pointer: `${target}#${m[2]}` });
      }
      for (const m of line.matchAll(SECTION)) {
        const target = m[1] === 'README' ? 'README.md' : m[1]!;
        if (!existsSync(path.join(ROOT, target)) || !hasSection(target, m[2]!)) broken.push({ at, pointer: `${m[1]}: ${m[2]}` });
      }
    });
  return broken;
}

describe('pointers in code, console text and docs', () => {
  it('makes GitHub anchors', () => {
    expect(slug('What an owner may hold')).toBe('what-an-owner-may-hold');
    expect(slug('`channelnet` command & more')).toBe('channelnet-command--more');
  });

  it('all resolve: files exist, anchors and named sections are headings of the file named', () => {
    const broken = [...SCANNED.flatMap(files), 'README.md'].flatMap(brokenIn);
    expect(broken.map((b) => `${b.at} -> ${b.pointer}`)).toEqual([]);
  });
});
