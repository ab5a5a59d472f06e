// Request validation of the Studio group: zod schemas with the catalog import's wording
// (issueMessage), failures as 422 invalid_request with one detail per problem. A body is
// checked for shape here and handed on as it was sent: the editing domain completes it (owner,
// ids, the stored version for a PATCH) and validates the whole entity by the catalog's rules,
// which apply defaults and transforms once.
import type { FastifySchemaCompiler } from 'fastify';
import { ZodUnion, type z } from 'zod';
import { formatIssues, issueLineCount, issueMessage } from '../catalog/issues.ts';
import { MAX_DETAILS, invalid } from '../editing/refusals.ts';
import { StudioError } from './errors.ts';

export class StudioValidationError extends StudioError {}

/**
 * A union's own failure says only "Invalid input"; the issues of the option whose type fits
 * (an object for one, an array for a list) say what is wrong.
 */
function issuesOf(schema: z.ZodType, data: unknown, issues: z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  if (!(schema instanceof ZodUnion)) return issues;
  for (const option of schema.options as z.ZodType[]) {
    const result = option.safeParse(data, { error: issueMessage });
    if (!result.success && !result.error.issues.some((i) => i.path.length === 0 && i.code === 'invalid_type')) return result.error.issues;
  }
  return issues;
}

export const studioValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data, { error: issueMessage });
    if (result.success) return { value: httpPart === 'body' ? data : result.data };
    const where = httpPart === 'body' ? '' : `${httpPart ?? 'request'}.`;
    const issues = issuesOf(schema, data, result.error.issues);
    // Only the details answered are worded; the rest are counted.
    const lines = formatIssues(issues.slice(0, MAX_DETAILS)).map((line) => `${where}${line}`);
    const refusal = invalid(lines, '', issueLineCount(issues));
    return { error: new StudioValidationError(422, 'invalid_request', refusal.message, refusal.details, refusal.detailsOmitted) };
  };
