// The channel M3U IPTV players read (docs/linear.md: The M3U): `#EXTM3U` naming the guide, then
// per channel an `#EXTINF:-1` line with the tvg attributes and the line of its master playlist URL.
//
// M3U has no escaping: an attribute ends at the next `"` and an entry at the next line break, so
// text from the catalog (a channel named `Evil" tvg-id="x` or with a newline in it) is made safe
// by removing what could end either: `"` becomes `'`, and line breaks (CR, LF, U+2028, U+2029, NEL)
// and other control characters become spaces. A logo that is not a plain http(s) URL is left out.
// Pure: no I/O.
import type { LineupChannel } from './types.ts';

export const M3U_CONTENT_TYPE = 'audio/x-mpegurl; charset=utf-8';

export interface M3uEntry extends LineupChannel {
  /** The channel's absolute master playlist URL. */
  url: string;
}

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
const BREAKING = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;
const PLAIN_URL = /^https?:\/\/[^\s"<>\\^`{|}\u0000-\u001F\u007F-\u009F\u2028\u2029]+$/;

/** Text that can end neither an attribute nor a line. */
export function m3uText(value: string): string {
  return value.replace(BREAKING, ' ').replaceAll('"', "'").replace(/ {2,}/g, ' ').trim();
}

function attribute(name: string, value: string): string {
  return ` ${name}="${m3uText(value)}"`;
}

/** The whole playlist. `guideUrl`: the XMLTV guide players load with it (url-tvg). */
export function writeM3u(guideUrl: string, entries: readonly M3uEntry[]): string {
  const guide = m3uText(guideUrl);
  const lines = [`#EXTM3U url-tvg="${guide}" x-tvg-url="${guide}"`];
  for (const e of entries) {
    const name = m3uText(e.name) || `Channel ${e.guideNumber}`;
    const logo = e.logoUrl !== null && PLAIN_URL.test(e.logoUrl) ? attribute('tvg-logo', e.logoUrl) : '';
    lines.push(
      `#EXTINF:-1${attribute('tvg-id', e.xmltvId)}${attribute('tvg-chno', e.guideNumber)}${attribute('tvg-name', name)}${logo}${attribute('group-title', e.group)},${name}`,
      m3uText(e.url),
    );
  }
  return `${lines.join('\n')}\n`;
}
