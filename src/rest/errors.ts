// The REST group's refusals, answered in the { success:false, error:{ code, message } } envelope
// (src/http/success-envelope.ts). Statuses are our choice where the spec leaves them open
// (docs/rest.md).

export class RestError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'RestError';
  }
}

export const unauthorized = () => new RestError(401, 'unauthorized', 'A valid Bearer token is required.');
export const channelNotFound = () => new RestError(404, 'channel_not_found', 'Channel not found.');
export const invalidRequest = (message: string) => new RestError(400, 'invalid_request', message);
export const epgKeyNotFound = () => new RestError(404, 'epg_key_not_found', 'No guide has this key (unknown or revoked).');
