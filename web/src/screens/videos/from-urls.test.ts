import { describe, expect, it } from 'vitest';
import { bodiesOf, listNotes, rowErrorsFromDetails, rowOf, urlsOf } from './from-urls.ts';

const YT = 'dQw4w9WgXcQ';
const youtube = {
  url: `https://youtu.be/${YT}`,
  problem: null,
  lookup: 'found' as const,
  lookupMessage: null,
  missing: ['durationSeconds'],
  existing: null,
  repeatOf: null,
  list: null,
  video: { providerName: 'YouTube', providerVideoId: YT, streamUrl: null, thumbnailUrl: `https://i.ytimg.com/vi/${YT}/hqdefault.jpg`, title: 'Rick' },
};

describe('adding videos from URLs', () => {
  it('reads one URL per line, once each', () => {
    expect(urlsOf(` https://youtu.be/${YT}\n\n# a comment\nhttps://vimeo.com/1\r\nhttps://youtu.be/${YT}`)).toEqual([`https://youtu.be/${YT}`, 'https://vimeo.com/1']);
  });

  it('turns a lookup into a row saying what the creator must fill in', () => {
    expect(rowOf(youtube)).toMatchObject({ title: 'Rick', duration: '', providerVideoId: YT, note: 'fill in the duration' });
    const offline = rowOf({
      ...youtube,
      lookup: 'unavailable',
      lookupMessage: 'YouTube could not be reached',
      missing: ['title', 'durationSeconds'],
      video: { ...youtube.video, title: undefined } as never,
    });
    expect(offline).toMatchObject({
      title: '',
      note: 'YouTube could not be reached: fill in the title and the duration',
      thumbnailUrl: `https://i.ytimg.com/vi/${YT}/hqdefault.jpg`,
    });
  });

  it('makes bodies with the url (the server parses it) or says per row what is missing', () => {
    const row = { ...rowOf(youtube), duration: '3:33' };
    expect(bodiesOf([row])).toEqual({
      bodies: [{ url: `https://youtu.be/${YT}`, title: 'Rick', durationSeconds: 213, thumbnailUrl: `https://i.ytimg.com/vi/${YT}/hqdefault.jpg` }],
      rowOf: [0],
      errors: new Map(),
    });
    const { errors } = bodiesOf([row, { ...row, duration: '0', title: ' ' }, { ...row, problem: 'not a URL' }]);
    expect([...errors]).toEqual([
      [1, { title: 'enter a title', durationSeconds: '"0" is not seconds or h:mm:ss above 0' }],
      [2, { url: 'not a URL' }],
    ]);
  });

  it('leaves out a video the library has or an earlier line names, saying so', () => {
    const have = rowOf({ ...youtube, existing: { videoId: 7, title: 'Rick' } });
    const again = rowOf({ ...youtube, url: `https://www.youtube.com/watch?v=${YT}`, repeatOf: 0 });
    expect([have.leftOut, again.leftOut]).toEqual(['already in your videos as “Rick” (video 7): left out', 'the same video as line 1: left out']);
    const fresh = { ...rowOf(youtube), duration: '1:00' };
    // Rows left out make no body and no error; body k names its row.
    expect(bodiesOf([{ ...have, duration: '' }, fresh, again])).toMatchObject({ bodies: [{ durationSeconds: 60 }], rowOf: [1], errors: new Map() });
  });

  it("puts the API's details beside their rows", () => {
    expect(
      rowErrorsFromDetails([
        { path: '[2].durationSeconds', message: 'must be > 0' },
        { path: '[0]', message: 'x' },
        { path: '(root)', message: 'y' },
      ]),
    ).toEqual({
      rows: new Map([
        [2, { durationSeconds: 'must be > 0' }],
        [0, { url: 'x' }],
      ]),
      other: ['(root): y'],
    });
  });
});

describe('lists and duplicates in the review', () => {
  const playlist = {
    url: 'https://www.youtube.com/playlist?list=PL1',
    name: 'YouTube playlist PL1',
    title: null,
    lookup: 'found' as const,
    videos: 2,
    cut: false,
    message: '1 private or deleted video left out',
  };
  const uploads = {
    url: 'https://www.youtube.com/@harbour',
    name: 'the uploads of YouTube channel @harbour',
    title: 'Harbour Films',
    lookup: 'found' as const,
    videos: 500,
    cut: true,
    message: 'cut at 500 videos, the most one lookup takes from lists: import the rest another way',
  };
  const down = {
    url: 'https://vimeo.com/showcase/1',
    name: 'Vimeo showcase 1',
    title: null,
    lookup: 'unavailable' as const,
    videos: 0,
    cut: false,
    message: 'Vimeo did not answer: it answered 500',
  };

  it('says what each pasted list gave, and which rows came from it, with durations as h:mm:ss', () => {
    expect(listNotes([playlist, uploads, down])).toEqual([
      { text: 'YouTube playlist PL1: 2 videos; 1 private or deleted video left out', problem: false },
      {
        text: 'the uploads of YouTube channel @harbour (“Harbour Films”): 500 videos; cut at 500 videos, the most one lookup takes from lists: import the rest another way',
        problem: true,
      },
      { text: 'Vimeo showcase 1: Vimeo did not answer: it answered 500', problem: true },
    ]);
    const listed = rowOf({ ...youtube, list: 1, missing: [], video: { ...youtube.video, durationSeconds: 3723 } }, [playlist, uploads]);
    expect(listed).toMatchObject({ from: 'the uploads of YouTube channel @harbour (“Harbour Films”)', duration: '1:02:03', note: null });
  });

  it('says why a found video has no duration (a live stream), and why the API was not asked', () => {
    expect(rowOf({ ...youtube, lookupMessage: 'YouTube gives no duration for a live stream or premiere (live)' }).note).toBe(
      'YouTube gives no duration for a live stream or premiere (live): fill in the duration',
    );
    expect(rowOf({ ...youtube, lookupMessage: "YouTube's API quota for today is used up (403 quotaExceeded): durations cannot be read until it resets" }).note).toContain('quota');
  });

  it('adds a duplicate the creator ticks "Add anyway" for', () => {
    const have = { ...rowOf({ ...youtube, existing: { videoId: 7, title: 'Rick' } }), duration: '3:33' };
    expect(bodiesOf([have]).bodies).toEqual([]);
    expect(bodiesOf([{ ...have, addAnyway: true }])).toMatchObject({ bodies: [{ url: youtube.url, durationSeconds: 213 }], rowOf: [0] });
  });
});
