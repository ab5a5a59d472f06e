// The REST group's failure envelope: { success:false, error:{ code, message } }.
// Statuses are our choice where the spec leaves them open (documented in README).
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

export function restFailure(code: string, message: string) {
  return { success: false as const, error: { code, message } };
}

export function restSuccess<T>(data: T) {
  return { success: true as const, data };
}
