// Tells "the database is unreachable right now" (answer 503, retry later) from a fault.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE']);
// SQLSTATE class 08 (connection exception) and 57P01-57P03 (server shutting down / starting).
const SQLSTATE = /^(08\d{3}|57P0[123])$/;
const MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /cannot use a pool after calling end/i,
  /client has encountered a connection error/i,
  /pglite is closed/i,
  /database is closing/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (MESSAGES.some((pattern) => pattern.test(current instanceof Error ? current.message : ''))) return true;
  }
  return false;
}
