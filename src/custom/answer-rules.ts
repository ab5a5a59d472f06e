// The request headers a Custom API answer may depend on beside its URL (src/http/answers.ts): the
// app (Platform-Id, or the legacy Platform) and the request zone (the `timezone` header; the
// query parameter is in the URL). Device-Id and the Bearer are left out on purpose: an answer that
// depends on them is a per-viewer answer, never kept (src/entitlements/gating.ts, sameForEveryViewer).
import type { FastifyRequest } from 'fastify';
import { deviceIdOf } from './headers.ts';

/**
 * A kept answer is served before the route reads its headers: a Device-Id the route would refuse
 * (422) must reach the route, not the answer kept for the same URL.
 */
function admits(request: FastifyRequest): boolean {
  try {
    deviceIdOf(request);
    return true;
  } catch {
    return false;
  }
}

export const CUSTOM_RULE = { vary: ['platform-id', 'platform', 'timezone'], admits } as const;

/** For answers that read no zone and no device (app settings, VAST). */
export const PLATFORM_RULE = { vary: ['platform-id', 'platform'] } as const;
