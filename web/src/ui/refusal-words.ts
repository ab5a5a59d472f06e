// The API's refusals in a creator's words. The Studio API words its refusals for API callers
// ("send allowOverlap: true", "schedule block 900121"); the console says the same in terms of
// what is on screen (blocks by their times, the "Allow overlap" box, "this video"). One table
// from refusal code to sentence; the codes whose message carries facts worth keeping (which
// times overlap, where a video is used) are rewritten from the message, and an unexpected
// message falls back to the table's sentence, never to the API's words.

/** 2026-11-27T08:00:00+01:00 -> "Fri 27 Nov 08:00" (the wall time the API printed, in the channel's zone). */
export function wallTime(zoned: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(zoned);
  if (!match) return zoned;
  const [, y, m, d, hh, mm] = match;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  const day = date.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).replace(',', '');
  return `${day} ${hh}:${mm}`;
}

const CONFLICT = /\((\S+) to (\S+)\) overlaps (.*) \((\S+) to (\S+)\) on \S+ in ([^;]+);/;
/** The other block as the API names it: by its first video's title (`the 'Morning news' block`). */
const TITLED = /^(?:the copy of )?the '(.*)' block/;

const SENTENCES: Record<string, string> = {
  schedule_conflict: 'This block would overlap another block of the channel. Move or shorten one of them, or tick "Allow overlap" to keep both.',
  precondition_failed: 'Someone else changed this since you opened it. Reload to see their version; what you typed is kept.',
  in_use: 'This is still in use elsewhere: remove it there first.',
  not_found: 'This no longer exists (it may have been deleted in another window). Reload to see what is there now.',
  id_taken: 'That number is already taken. Leave the id empty and the Studio picks a free one.',
  idempotency_key_reused: 'This was already sent with different content. Try again.',
  forbidden: 'The Studio is for channel owners. This account owns no channels or apps.',
  too_many_requests: 'Too many requests at once: wait a moment and try again.',
  payload_too_large: 'That is too much to send at once: split it into smaller parts.',
  unsupported_media_type: 'The Studio could not read what was sent. Reload the page and try again.',
  network: 'The server could not be reached. Check the connection and try again.',
  service_unavailable: 'The server is busy right now: try again in a moment.',
};

/** A refusal's sentence for the creator; undefined when the code has none (a validation message is already in words). */
export function creatorWords(code: string, message: string): string | undefined {
  if (code === 'schedule_conflict') {
    const times = CONFLICT.exec(message);
    if (!times) return SENTENCES.schedule_conflict;
    const [, aStart, aEnd, other, bStart, bEnd, zone] = times;
    const title = TITLED.exec(other!)?.[1];
    const named = title === undefined ? 'another block' : `the '${title}' block`;
    return (
      `This would play ${wallTime(aStart!)} to ${wallTime(aEnd!).slice(-5)}, over ${named} playing ${wallTime(bStart!)} to ${wallTime(bEnd!).slice(-5)} ` +
      `(${zone!.trim()} time). Move or shorten one of them, or tick "Allow overlap" to keep both.`
    );
  }
  if (code === 'in_use') {
    const video = /^Video \d+ is still used by (.+); remove it there first\.$/.exec(message);
    if (video)
      return `This video is still used by ${video[1]!.replace(/schedule block \d+ of/g, 'a schedule block of').replace(/live stream \d+ of/g, 'a live stream of')}: remove it there first.`;
    const collection = /^The collection '.+' is still played by (.+); give them other videos first\.$/.exec(message);
    if (collection) return `This collection is still played by ${collection[1]}: give them other videos first.`;
    const app = /has (\d+ subscriptions?) and (\d+ PPV unlocks?) of viewers recorded/.exec(message);
    if (app) return `This app has ${app[1]} and ${app[2]} of viewers recorded, which deleting it would delete too. Edit the app and save it instead.`;
  }
  return SENTENCES[code];
}
