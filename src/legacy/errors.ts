// The Legacy Web Services' answers that are not ASMX's own pages (asmx.ts): ASMX had neither
// limits, nor an unreachable database, nor a router refusing URLs. These are one-line plain-text
// pages, the status text, which old parsers handle like the 500 pages. Unknown services are
// left to Fastify's own 404 (no notFound).
import { STATUS_CODES } from 'node:http';
import type { Envelope, Enveloped } from '../http/envelope.ts';
import { ASMX_ERROR_CONTENT_TYPE } from './asmx.ts';

const page = (text: string): Enveloped => ({ text: `${text}\r\n`, contentType: ASMX_ERROR_CONTENT_TYPE });

export const LEGACY_ENVELOPE = {
  failure: (status) => page(status >= 500 ? 'Server Error' : (STATUS_CODES[status] ?? 'Bad Request')),
  unavailable: page('Server Too Busy'),
} satisfies Envelope;
