import { describe, expect, it } from 'vitest';
import { parsePastedVideos, problemsFromDetails } from './paste.ts';

describe('pasted video lists', () => {
  it('parses lines with pipes or tabs, skipping blanks and comments, and names bad lines', () => {
    const { videos, problems } = parsePastedVideos(
      '# title | duration | provider | id\nNews | 10:00 | YouTube | abc\n\nSport\t90\tVimeo\t123\tA description\nBroken | x | YouTube | y\nShort | 5',
    );
    expect(videos).toEqual([
      { line: 2, video: { title: 'News', durationSeconds: 600, providerName: 'YouTube', providerVideoId: 'abc' } },
      { line: 4, video: { title: 'Sport', durationSeconds: 90, providerName: 'Vimeo', providerVideoId: '123', description: 'A description' } },
    ]);
    expect(problems).toEqual([
      { line: 5, message: 'duration "x" is not seconds or h:mm:ss' },
      { line: 6, message: 'expected title | duration | provider | provider video id' },
    ]);
  });

  it('refuses more than 1,000 videos at once', () => {
    const text = Array.from({ length: 1001 }, (_, i) => `V${i} | 1 | YouTube | id${i}`).join('\n');
    expect(parsePastedVideos(text).problems).toEqual([{ line: 1001, message: 'at most 1000 videos in one paste' }]);
  });

  it("maps the API's item paths back to pasted lines", () => {
    const lines = parsePastedVideos('A | 1 | Y | a\n\nB | 2 | Y | b').videos;
    expect(
      problemsFromDetails(
        [
          { path: '[1].title', message: 'bad' },
          { path: '', message: 'whole' },
        ],
        lines,
      ),
    ).toEqual([
      { line: 3, message: 'title: bad' },
      { line: 0, message: 'whole' },
    ]);
  });
});
