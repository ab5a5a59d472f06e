// The live group's refusals: a status, a code and words, answered in the REST { success:false }
// envelope with CORS * (web players read the status).
export class LiveError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'LiveError';
  }
}

export const notPlayable = () => new LiveError(404, 'not_found', 'No live stream here: the key is unknown or revoked, the channel is not open to it, or it has no linear output.');
export const noSlate = () => new LiveError(404, 'not_found', 'No such slate segment.');
