import { describe, expect, it } from 'vitest';
import { creatorWords, wallTime } from './refusal-words.ts';

describe("refusals in a creator's words", () => {
  it('says a schedule conflict in wall times and points at the Allow overlap box, not the API field', () => {
    const api =
      'The new block (2026-11-27T08:00:00+01:00 to 2026-11-27T09:00:00+01:00) overlaps schedule block 900121 (2026-11-27T08:30:00+01:00 to 2026-11-27T10:00:00+01:00) on 2026-11-27 in Europe/Berlin; move or shorten one of them, or send allowOverlap: true to keep both.';
    const words = creatorWords('schedule_conflict', api)!;
    expect(words).toBe(
      'This would play Fri 27 Nov 08:00 to 09:00, over another block playing Fri 27 Nov 08:30 to 10:00 (Europe/Berlin time). Move or shorten one of them, or tick "Allow overlap" to keep both.',
    );
    expect(words).not.toMatch(/allowOverlap|900121/);
    expect(creatorWords('schedule_conflict', 'something else entirely')).toMatch(/^This block would overlap/);
  });

  it("names the other block of a conflict by its first video's title, as the API does", () => {
    const api =
      "The 'Evening (late) show' block (2026-11-27T08:00:00+01:00 to 2026-11-27T09:00:00+01:00) overlaps the 'Morning news (part 1)' block (2026-11-27T08:30:00+01:00 to 2026-11-27T10:00:00+01:00) on 2026-11-27 in Europe/Berlin; move or shorten one of them, or send allowOverlap: true to keep both.";
    expect(creatorWords('schedule_conflict', api)).toBe(
      'This would play Fri 27 Nov 08:00 to 09:00, over the \'Morning news (part 1)\' block playing Fri 27 Nov 08:30 to 10:00 (Europe/Berlin time). Move or shorten one of them, or tick "Allow overlap" to keep both.',
    );
    const copy =
      "The copy of the 'A' block to 2026-12-23 (2026-12-23T00:10:00-05:00 to 2026-12-23T00:20:00-05:00) overlaps the copy of the 'Concert' block to 2026-12-22 (2026-12-22T23:30:00-05:00 to 2026-12-23T00:30:00-05:00) on 2026-12-23 in America/New_York; move";
    expect(creatorWords('schedule_conflict', copy)).toContain("over the 'Concert' block playing Tue 22 Dec 23:30 to 00:30");
  });

  it('says where a video is used without block and stream numbers, and why an app cannot go', () => {
    expect(
      creatorWords('in_use', 'Video 5001 is still used by the library of channel 201, schedule block 9001 of channel 201, live stream 7 of channel 202; remove it there first.'),
    ).toBe('This video is still used by the library of channel 201, a schedule block of channel 201, a live stream of channel 202: remove it there first.');
    expect(
      creatorWords('in_use', 'Video 5001 is still used by the block at 2026-11-21 08:00 of channel 201, the daily block at 06:00 of channel 202; remove it there first.'),
    ).toBe('This video is still used by the block at 2026-11-21 08:00 of channel 201, the daily block at 06:00 of channel 202: remove it there first.');
    expect(
      creatorWords(
        'in_use',
        'Your roku app 42 has 2 subscriptions and 0 PPV unlocks of viewers recorded, which deleting it would delete too; change the app with PUT /apps/roku instead.',
      ),
    ).toBe('This app has 2 subscriptions and 0 PPV unlocks of viewers recorded, which deleting it would delete too. Edit the app and save it instead.');
  });

  it('has a sentence for every refusal without details, and none for a validation message', () => {
    for (const code of ['precondition_failed', 'not_found', 'id_taken', 'idempotency_key_reused', 'forbidden', 'too_many_requests', 'payload_too_large', 'network']) {
      expect(creatorWords(code, 'Send If-Match: "x"'), code).toMatch(/^[A-Z][^]*\.$/);
    }
    expect(creatorWords('invalid_request', 'Invalid request: title: required')).toBeUndefined();
    expect(wallTime('not a time')).toBe('not a time');
  });
});
