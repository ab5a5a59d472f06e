// The shipped seed of a new embedded data directory (src/db/pglite-seed.ts) is the installed
// PGlite's: after an upgrade it must be made again (npm run make:pglite-seed), or every first start
// falls back to initdb and its ~900 MB.
import { describe, expect, it } from 'vitest';
import { installedPgliteVersion, seedFor } from '../src/db/pglite-seed.ts';

describe('the PGlite seed', () => {
  it('was made by the installed PGlite', () => {
    expect(seedFor(), `assets/pglite-seed.tgz is not PGlite ${installedPgliteVersion()}'s: run npm run make:pglite-seed`).toBeInstanceOf(Blob);
  });

  it('is not used for another version', () => {
    expect(seedFor('0.0.1')).toBeUndefined();
  });
});
