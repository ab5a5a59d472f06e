// The request headers a Custom API answer may depend on beside its URL (src/http/answers.ts): the
// app (Platform-Id, or the legacy Platform) and the request zone (the `timezone` header; the
// query parameter is in the URL). Device-Id and the Bearer are left out on purpose: an answer that
// depends on them is a per-viewer answer, never kept (src/entitlements/gating.ts, sameForEveryViewer).
export const CUSTOM_VARY = ['platform-id', 'platform', 'timezone'] as const;

/** For answers that read no zone (app settings, VAST). */
export const PLATFORM_VARY = ['platform-id', 'platform'] as const;
