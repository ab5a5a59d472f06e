// Set-up of every integration test file (vitest.config.ts): files share worker processes, so the
// module state one file leaves is cleared before the next begins. What holds such state: the
// metrics registry (counters and histograms), the stored-origins allow list (each test app adds
// its operator's origins). Caches keyed by content (zone tables, escaped video text checked
// against the video, images by digest) stay: a later file's data cannot meet a stale entry.
import { beforeAll } from 'vitest';
import { forgetStoredOriginsForTests } from '../../src/catalog/fields.ts';
import { registry } from '../../src/observability/metrics.ts';

beforeAll(() => {
  registry.resetMetrics();
  forgetStoredOriginsForTests();
});
