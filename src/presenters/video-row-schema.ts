// The guide or VOD row's wire schema (spec "Custom API" video rows), apart from its presenter so
// that schema modules stay pure (zod only): the Studio contract, which the console type-checks,
// reaches it without the domain or the database.
import { z } from 'zod';
import { plainText } from './plain-text.ts';

const text = z.string();
/** Times, dates, duration labels and ids the service formats itself (src/http/serializer.ts). */
const formatted = plainText();
const id = z.int();

export const videoRowSchema = z.object({
  customId: formatted,
  id: formatted,
  videoTubeId: id,
  userId: id,
  title: text,
  providerVideoId: text,
  channelId: id,
  duration: z.int(),
  timeDuration: formatted,
  startDate: formatted,
  endDate: formatted,
  providerName: text,
  durationInDate: formatted,
  thumbnail: text,
  streamUrl: text.nullable(),
  isVod: z.boolean(),
});
