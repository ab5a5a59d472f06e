// The live outputs' refusals (the live playlists, the M3U and the HDHomeRun tuner), in the
// { success:false, error:{ code, message } } envelope with CORS * (web players read the status,
// people the words). Statuses and codes are listed in docs/linear.md.
import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { GroupErrors } from '../http/group-errors.ts';
import { SUCCESS_ENVELOPE, errorBody } from '../http/success-envelope.ts';

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

export const LIVE_ENVELOPE = SUCCESS_ENVELOPE;

export const notPlayable = () => new LiveError(404, 'not_found', 'No live stream here: the key is unknown or revoked, the channel is not open to it, or it has no linear output.');
export const noSlate = () => new LiveError(404, 'not_found', 'No such slate segment.');
export const liveKeyNotFound = () => new LiveError(404, 'live_key_not_found', 'No live channels have this key (unknown or revoked).');
export const liveChannelNotFound = () => new LiveError(404, 'channel_not_found', 'This key does not play this channel.');
export const noFfmpeg = (path: string) =>
  new LiveError(503, 'tuner_unavailable', `The tuner cannot stream: ffmpeg (${path}) is not installed on this server. The M3U and the live playlists work without it.`);
export const allTunersBusy = (count: number) => new LiveError(503, 'all_tuners_busy', `All ${count} tuners of this device are in use; stop another stream first.`);
export const tunerSourceFailed = () => new LiveError(502, 'tuner_source_failed', "The channel's live stream could not be read; try again shortly.");

export const LIVE_ERRORS = (name: string): GroupErrors<FastifyError | LiveError> => ({
  name,
  envelope: LIVE_ENVELOPE,
  faultMessage: 'Internal server error.',
  answer(error, _request, reply) {
    if (error instanceof LiveError) return reply.code(error.statusCode).header('access-control-allow-origin', '*').send(errorBody(error.code, error.message));
    // A path whose channel id is not a number names no channel.
    if (hasZodFastifySchemaValidationErrors(error))
      return reply.code(404).header('access-control-allow-origin', '*').send(errorBody('channel_not_found', 'This key does not play this channel.'));
    return undefined;
  },
});
