import { describe, expect, it } from 'vitest';
import { keyFromPaste, liveUrls } from './urls.ts';

const KEY = 'Ab3_-xYz0123456789abcdefghijklmnopqrstuvwxy';

describe('the addresses players take', () => {
  it('builds the M3U, master, tuner and guide URLs of one key on the origin', () => {
    expect(liveUrls('http://tv.example:8080/', KEY, 201)).toEqual({
      m3u: `http://tv.example:8080/api/v1/live/${KEY}/channels.m3u`,
      master: `http://tv.example:8080/api/v1/live/${KEY}/201/master.m3u8`,
      tuner: `http://tv.example:8080/hdhr/${KEY}`,
      discover: `http://tv.example:8080/hdhr/${KEY}/discover.json`,
      guide: `http://tv.example:8080/api/v1/rest/epg/${KEY}.xml`,
    });
  });

  it('finds the key in a pasted key or in any URL that holds one', () => {
    expect(keyFromPaste(`  ${KEY} `)).toBe(KEY);
    expect(keyFromPaste(`https://tv.example/api/v1/rest/epg/${KEY}.xml`)).toBe(KEY);
    expect(keyFromPaste(`https://tv.example/api/v1/rest/epg/${KEY}.xml?days=7`)).toBe(KEY);
    expect(keyFromPaste(`https://tv.example/api/v1/live/${KEY}/channels.m3u`)).toBe(KEY);
    expect(keyFromPaste(`https://tv.example/hdhr/${KEY}/discover.json`)).toBe(KEY);
    expect(keyFromPaste(`https://tv.example/hdhr/${KEY}`)).toBe(KEY);
    expect(keyFromPaste('')).toBeUndefined();
    expect(keyFromPaste('not a key')).toBeUndefined();
  });
});
