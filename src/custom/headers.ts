// Request headers of the app templates (spec: Custom Services API headers), each with its
// legacy fallback. A value that is present but names nothing is a 422, never silently ignored.
import type { FastifyRequest } from 'fastify';
import { resolveZone } from '../schedules/zones.ts';
import { invalidField } from './errors.ts';
import { clientPlatform, CLIENT_PLATFORMS, type ClientPlatform } from './platforms.ts';

const MAX_DEVICE_ID_LENGTH = 255;
const PLATFORM_IDS = Object.keys(CLIENT_PLATFORMS).join(', ');

/** The first of the headers that has a non-blank value, trimmed. */
function header(request: FastifyRequest, ...names: string[]): string | undefined {
  for (const name of names) {
    const raw = request.headers[name];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (value) return value;
  }
  return undefined;
}

/** Platform-Id, else the legacy Platform header; undefined when neither is sent. */
export function optionalPlatform(request: FastifyRequest): ClientPlatform | undefined {
  const value = header(request, 'platform-id', 'platform');
  if (value === undefined) return undefined;
  const platform = clientPlatform(value);
  if (!platform) throw invalidField('platform_id', `The selected platform id is invalid; use one of ${PLATFORM_IDS}.`);
  return platform;
}

export function requiredPlatform(request: FastifyRequest): ClientPlatform {
  const platform = optionalPlatform(request);
  if (!platform) throw invalidField('platform_id', 'The platform id field is required.');
  return platform;
}

/** Device-Id, else the legacy Accept-Platform-Device-Id; null when neither is sent. */
export function deviceIdOf(request: FastifyRequest): string | null {
  const value = header(request, 'device-id', 'accept-platform-device-id');
  if (value !== undefined && value.length > MAX_DEVICE_ID_LENGTH) {
    throw invalidField('device_id', `The device id may not be greater than ${MAX_DEVICE_ID_LENGTH} characters.`);
  }
  return value ?? null;
}

/**
 * The request's time zone as an IANA id: the `timezone` query parameter, else the `timezone`
 * header (the query is the more specific of the two); undefined when neither is sent.
 */
export function requestZone(request: FastifyRequest): string | undefined {
  const query = (request.query as Record<string, unknown> | undefined)?.['timezone'];
  const value = typeof query === 'string' && query.trim() !== '' ? query.trim() : header(request, 'timezone');
  if (value === undefined) return undefined;
  const zone = resolveZone(value);
  if (!zone) throw invalidField('timezone', 'The timezone must be a valid IANA or Windows time zone id.');
  return zone;
}
