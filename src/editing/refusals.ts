// Why a Studio write was refused, as codes the Studio group maps to statuses with one table
// (src/studio/errors.ts). A refusal is thrown inside the write's transaction, so nothing the
// write did survives it.

export const EDIT_REFUSALS = [
  /** No such resource of this owner (another owner's answers exactly the same). */
  'not_found',
  /** The body breaks the catalog format's rules; details name each problem by JSON path. */
  'invalid_request',
  /** A block's span overlaps another block of that day (allowOverlap was not set). */
  'schedule_conflict',
  /** A client-chosen id is already in use (ids are one namespace across owners). */
  'id_taken',
  /** A video still referenced by a library, VOD catalog, block or live stream. */
  'in_use',
  /** If-Match names a version that is no longer current. */
  'precondition_failed',
  /** An Idempotency-Key reused for a different request. */
  'idempotency_key_reused',
  /** Another heavy write of the same owner (a programming apply, template, undo or preview) is running: retry when it ends. */
  'write_in_progress',
  /** An invite token that is unknown, used, expired or revoked (src/editing/invites.ts). */
  'invite_unusable',
  /** Becoming an owner this way is switched off by the operator (SIGNUP). */
  'signup_closed',
  /** Too many failed invite redemptions or sign-ups from this address: retry after `retryAfterSeconds`. */
  'too_many_attempts',
] as const;
export type EditRefusalCode = (typeof EDIT_REFUSALS)[number];

/** One problem of a request body, at its JSON path (as catalog import errors name them). */
export interface Detail {
  path: string;
  message: string;
}

/**
 * At most this many details in a refusal: the rest are counted (`detailsOmitted`, and the
 * message's "(and N more)"), so a body with a million mistakes is not answered with a million.
 */
export const MAX_DETAILS = 100;

export class EditRefusal extends Error {
  constructor(
    readonly code: EditRefusalCode,
    message: string,
    readonly details?: readonly Detail[],
    /** Details beyond MAX_DETAILS, counted only. */
    readonly detailsOmitted = 0,
  ) {
    super(message);
    this.name = 'EditRefusal';
  }
}

/** A refusal that says when to try again (answered with Retry-After). */
export class ThrottledRefusal extends EditRefusal {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('too_many_attempts', message);
  }
}

export const notFound = (what: string): EditRefusal => new EditRefusal('not_found', `${what} not found.`);

/**
 * `<path>: <message>` lines (catalog validation's wording) as details, re-rooted at the body; the
 * first MAX_DETAILS of `total` problems (the lines may be only those: a caller that counted the
 * rest need not word them).
 */
export function invalid(lines: readonly string[], root = '', total = lines.length): EditRefusal {
  const details = lines.slice(0, MAX_DETAILS).map((line) => {
    const at = line.indexOf(': ');
    const path = at < 0 ? '(root)' : line.slice(0, at);
    const message = at < 0 ? line : line.slice(at + 2);
    return { path: rebase(path, root), message };
  });
  const first = details[0];
  const summary = first ? `${first.path}: ${first.message}` : 'invalid request';
  const more = total > 1 ? ` (and ${total - 1} more)` : '';
  return new EditRefusal('invalid_request', `Invalid request: ${summary}${more}`, details, total - details.length);
}

/** `channels[0].schedules[1].id` re-rooted at `channels[0]` is `schedules[1].id`. */
function rebase(path: string, root: string): string {
  if (root === '' || !path.startsWith(root)) return path;
  const rest = path.slice(root.length).replace(/^\./, '');
  return rest === '' ? '(root)' : rest;
}
