// Entity tags of Studio resources: a digest of the resource as answered, so any change to
// what a reader saw changes its tag. If-Match carries one or more tags (or `*`); a weak tag
// (W/"...") matches its strong form, as RFC 9110's weak comparison does for If-Match here,
// since our answers are the whole resource.
import { createHash } from 'node:crypto';
import { EditRefusal } from './refusals.ts';

export function etagOf(resource: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(resource)).digest('base64url').slice(0, 27)}"`;
}

function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .filter((t) => t !== '');
}

/** Refuses with precondition_failed when If-Match was sent and names no current tag. */
export function assertMatches(ifMatch: string | undefined, current: unknown): void {
  if (ifMatch === undefined) return;
  const tags = tagsOf(ifMatch);
  if (tags.includes('*') || tags.includes(etagOf(current))) return;
  throw new EditRefusal('precondition_failed', 'The resource changed since it was read (If-Match does not name its current ETag); read it again and retry.');
}
