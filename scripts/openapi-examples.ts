// npx tsx scripts/openapi-examples.ts: src/http/openapi-examples.json, the request and answer
// examples of the OpenAPI document, from the curl examples of docs/*.md (which
// test/docs-examples.test.ts runs against the service). Run it after changing a docs example:
// test/openapi-examples.test.ts fails while the file differs from what the docs say.
import { readFileSync, writeFileSync } from 'node:fs';
import { OPENAPI_EXAMPLES_FILE, openApiExamplesJson } from '../test/support/docs-examples.ts';

const json = openApiExamplesJson();
const before = (() => {
  try {
    return readFileSync(OPENAPI_EXAMPLES_FILE, 'utf8');
  } catch {
    return '';
  }
})();
writeFileSync(OPENAPI_EXAMPLES_FILE, json);
const count = (JSON.parse(json) as { examples: unknown[] }).examples.length;
process.stdout.write(`${before === json ? 'unchanged' : 'wrote'} ${OPENAPI_EXAMPLES_FILE}: ${count} examples\n`);
