// Pure validation of a catalog file: shape first (zod), then, on a well-formed catalog,
// the rules that need the whole file and the database's ids. No database access here.
import { catalogSchema, type Catalog } from './format.ts';
import { formatIssues, issueMessage } from './issues.ts';
import { buildResolver, type ExistingCatalog } from './resolve.ts';
import { checkAccounts, checkAccountUniqueness, checkAppTokens, checkChannels, checkDuplicateIds, checkScheduleIds, checkVideos, type Errors } from './checks.ts';
import { checkApps, checkEntitlements } from './checks-apps.ts';

export { EMPTY_EXISTING, type ExistingCatalog } from './resolve.ts';
export { parseCatalogText } from './json-text.ts';

export type CatalogValidation = { ok: true; catalog: Catalog } | { ok: false; errors: string[] };

function crossChecks(catalog: Catalog, existing: ExistingCatalog): Errors {
  const errors: Errors = [];
  const resolve = buildResolver(catalog, existing);
  checkDuplicateIds(catalog, errors);
  checkScheduleIds(catalog, existing, errors);
  checkAccountUniqueness(catalog, existing, errors);
  checkAppTokens(catalog, errors);
  checkAccounts(catalog, resolve, errors);
  checkVideos(catalog, resolve, errors);
  checkChannels(catalog, existing, resolve, errors);
  checkApps(catalog, existing, resolve, errors);
  checkEntitlements(catalog, resolve, errors);
  return errors;
}

export function validateCatalog(input: unknown, existing: ExistingCatalog): CatalogValidation {
  const parsed = catalogSchema.safeParse(input, { error: issueMessage });
  if (!parsed.success) return { ok: false, errors: formatIssues(parsed.error.issues) };
  const errors = crossChecks(parsed.data, existing);
  return errors.length === 0 ? { ok: true, catalog: parsed.data } : { ok: false, errors };
}
