// Programming by rules, pure: a weekly slot plan (and a filler list) generated into ordinary
// one-off schedule blocks for a range of channel-local dates, and the mapping of a template's
// days onto target dates. No I/O: the Studio's editing module loads the plan, the durations, the
// blocks that stay and what aired before, and writes what this answers.
//
// The rules (docs/programming.md):
// - A slot plays on a set of weekdays (ISO: 1 Monday ... 7 Sunday) at a wall time HH:mm in the
//   channel zone (resolved as every block start is: wallTimeToEpoch, DST included).
// - A slot's occurrence runs until its end when it has one (a wall time HH:mm: the same day, or the
//   next when it is not after the start), or until the next occurrence of any slot (the plan repeats
//   weekly, so there always is one within 7 days), or until a block that stays starts, whichever
//   comes first. An off-air slot holds no videos: its occurrences make no block and only end the
//   slot before (dead air until the next). An occurrence whose start falls inside a block that
//   stays is left out (a warning says so). Warnings say when an occurrence is cut an hour or more
//   short of its end, or, without an end, runs longer than a day (a Mon-Fri slot with no end runs
//   through the weekend).
// - It fills its time with its videos in its order while the next one fits: never past its end.
//   The first video that does not fit ends the programme (the order is kept: that video opens
//   the slot's next occurrence); the rest of the time is the remainder.
// - With filler on, the remainder is filled from the filler list, best fit: each time the filler
//   video leaving the shortest remainder (the longest that fits; ties: first in the list), until
//   none fits. Filler joins the slot's block, after its programme.
// - Orders: inOrder cycles through the list, continuing across the slot's occurrences; shuffle
//   plays a permutation of the list per pass, drawn from the seed (same seed, same plan, same
//   range: same blocks); leastRecentlyAired takes the video that last started longest ago (what
//   aired before the range, then what this generation placed; never aired first; ties: list order).
// - Each occurrence that holds at least one video is one block: startTime the slot's wall time on
//   that date, loopDaily false, videoIds programme then filler.
import { addDays } from './channel-day.ts';
import { wallTimeToEpoch } from './expand.ts';
import { MAX_BLOCK_VIDEOS, MAX_DAY_ENTRIES } from './day-entries.ts';
import { fastLocalDateTime, offsetMinutes } from './zone-offsets.ts';
import { mulberry32 } from '../random.ts';

export const SLOT_ORDERS = ['inOrder', 'shuffle', 'leastRecentlyAired'] as const;
export type SlotOrder = (typeof SLOT_ORDERS)[number];

/** Bounds of a plan and of one generation: what a request may make the service compute and write. */
export const PROGRAMMING_LIMITS = {
  /** Slots of a plan (one every hour of the week, with room). */
  slots: 200,
  /** Videos of one slot's list, and of the filler list. */
  slotVideos: 200,
  fillerVideos: 200,
  /** Dates one generation covers. */
  generateDays: 31,
  /** Target dates of one template copy. */
  templateDays: 62,
  /** Blocks one programming write may create (31 days of 30-minute slots is 1,488). */
  writeBlocks: 2_000,
} as const;

export interface Slot {
  /** ISO weekdays: 1 Monday ... 7 Sunday. */
  days: number[];
  /** 'HH:mm' wall time in the channel zone. */
  start: string;
  /** The slot's playlist (a single video is a list of one); empty when it plays a collection. */
  videoIds: number[];
  order: SlotOrder;
  /** shuffle's seed (default 0). */
  seed?: number;
  /** Whether the generated blocks are published (default true). */
  published?: boolean;
  /** 'HH:mm' wall time the slot ends (the next day when not after start); absent: at the next slot. */
  end?: string;
  /** Dead air from start until the next slot: no videos, no block. */
  offAir?: boolean;
  /** The owner's collection the slot plays (src/schedules/collections.ts), resolved to videoIds when a plan is generated. */
  collectionId?: number;
  /**
   * A random slot: each occurrence plays one of these collections, drawn by weight from the
   * slot's seed (same plan, seed and range: the same draws); resolved to `choices` when generated.
   */
  collections?: RandomChoice[];
  /** The resolved form of `collections` generation reads: each choice's videos and weight. */
  choices?: Array<{ videoIds: number[]; weight: number }>;
  /** Filler that pads (issue 36 item 3): one video of the collection before the programme. */
  preRoll?: Roll | null;
  /** One video of the collection between two videos of the programme. */
  midRoll?: Roll | null;
  /** One video of the collection after the programme. */
  postRoll?: Roll | null;
  /** After the programme (and post-roll), filler up to the next :00 (60), :15 (15) or :30 (30) of the channel's wall clock, never past the slot's end. */
  padTo?: PadTo | null;
  /** The resolved form of the rolls generation reads: each roll collection's videos (those longer than 0 s). */
  rolls?: { preRoll?: readonly number[]; midRoll?: readonly number[]; postRoll?: readonly number[] };
}

/** A pre-, mid- or post-roll: the collection whose videos it plays, one at a time in the collection's order. */
export interface Roll {
  collectionId: number;
}

export const PAD_TO = [15, 30, 60] as const;
export type PadTo = (typeof PAD_TO)[number];

/** What a generated block's entry is: the slot's programme, or filler of some kind. */
export const ENTRY_ROLES = ['programme', 'preRoll', 'midRoll', 'postRoll', 'padding', 'filler', 'fallback'] as const;
export type EntryRole = (typeof ENTRY_ROLES)[number];

/** One collection a random slot may play, and its weight (how often, against the others'). */
export interface RandomChoice {
  collectionId: number;
  weight: number;
}

/** An occurrence without an end running longer than this is warned about. */
const LONG_OCCURRENCE_MS = 24 * 3_600_000;
/** An occurrence cut this much short of its end is warned about. */
const CUT_SHORT_MS = 3_600_000;

/** A slot with its fields in one order (a stored plan comes back from jsonb with its keys reordered; ETags hash the text). */
export function canonicalSlot(slot: Slot): Slot {
  return {
    days: slot.days,
    start: slot.start,
    videoIds: slot.videoIds,
    order: slot.order,
    ...(slot.seed !== undefined ? { seed: slot.seed } : {}),
    ...(slot.published !== undefined ? { published: slot.published } : {}),
    ...(slot.end !== undefined ? { end: slot.end } : {}),
    ...(slot.offAir !== undefined ? { offAir: slot.offAir } : {}),
    ...(slot.collectionId !== undefined ? { collectionId: slot.collectionId } : {}),
    ...(slot.collections !== undefined ? { collections: slot.collections.map((c) => ({ collectionId: c.collectionId, weight: c.weight })) } : {}),
    ...(slot.preRoll ? { preRoll: { collectionId: slot.preRoll.collectionId } } : {}),
    ...(slot.midRoll ? { midRoll: { collectionId: slot.midRoll.collectionId } } : {}),
    ...(slot.postRoll ? { postRoll: { collectionId: slot.postRoll.collectionId } } : {}),
    ...(slot.padTo ? { padTo: slot.padTo } : {}),
  };
}

/** A block occurrence that stays in the range: what slots may not run into. */
export interface Busy {
  blockId: number;
  start: number;
  end: number;
}

export interface GenerateInput {
  zone: string;
  /** Channel-local dates, inclusive. */
  from: string;
  to: string;
  slots: readonly Slot[];
  /** Seconds, by video id; every id of the plan and the filler is here. */
  durations: ReadonlyMap<number, number>;
  /** Filler video ids when filling is on. */
  filler?: readonly number[];
  /** The videos padding plays (the channel's filler), for slots with padTo. */
  padding?: readonly number[];
  /** The channel's dead-air fallback: what is left of a slot's time after everything else, filled best fit. */
  fallback?: readonly number[];
  busy: readonly Busy[];
  /** When each video last started before the range (epoch ms), for leastRecentlyAired. */
  lastAired?: ReadonlyMap<number, number>;
  /**
   * Entries the channel-days of the range already hold from what stays (one-off blocks, loops,
   * live streams): a day's room is what is left of MAX_DAY_ENTRIES, so whatever the generation
   * makes, the apply's own count accepts (a daily loop's entries count on every day).
   */
  entriesBefore?: ReadonlyMap<string, number>;
}

export interface GeneratedBlock {
  /** Index of the slot in the plan. */
  slot: number;
  date: string;
  /** 'yyyy-MM-ddTHH:mm:ss' wall time, the block's startTime. */
  startTime: string;
  published: boolean;
  videoIds: number[];
  /** How many of videoIds are filler (every role but programme). */
  fillerVideos: number;
  /** What each of videoIds is (same length). */
  roles: EntryRole[];
  start: number;
  /** Where its videos end, and where the slot's time ends (epoch ms). */
  end: number;
  slotEnd: number;
}

export interface GenerationWarning {
  slot: number;
  startTime: string;
  message: string;
}

/**
 * Dead air the generation declares: time of the range (its first date's midnight to the day
 * after its last) that no generated block and no block that stays covers. `slot`: the slot whose
 * time it is (null before the range's first slot); `reason`: offAir (an off-air slot's time),
 * remainder (after a slot's videos, nothing of filler or fallback fitting), afterEnd (past the
 * slot's own end, before the next slot starts: nothing is meant to play), leftOut (an occurrence
 * that made no block), noSlot (no slot's time).
 */
export interface DeadAir {
  slot: number | null;
  start: number;
  end: number;
  reason: (typeof DEAD_AIR_REASONS)[number];
}

export const DEAD_AIR_REASONS = ['offAir', 'remainder', 'afterEnd', 'leftOut', 'noSlot'] as const;

export interface Generation {
  blocks: GeneratedBlock[];
  warnings: GenerationWarning[];
  deadAir: DeadAir[];
}

/** ISO weekday (1 Monday ... 7 Sunday) of a 'yyyy-MM-dd' date. */
export function isoWeekday(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return day === 0 ? 7 : day;
}

/** Whole days from `a` to `b` ('yyyy-MM-dd'). */
export function daysBetween(a: string, b: string): number {
  const ms = (date: string) => {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((ms(b) - ms(a)) / 86_400_000);
}

/** The dates from `from` to `to`, inclusive. */
export function datesOf(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) dates.push(d);
  return dates;
}

const WEEKDAY_NAMES = ['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const SHORT_WEEKDAYS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** ISO weekdays as a creator reads them: 'every day', 'Mon–Fri', 'Sat, Sun', 'Mon, Wed–Fri'. */
export function weekdaysText(days: readonly number[]): string {
  const sorted = [...new Set(days)].filter((d) => d >= 1 && d <= 7).sort((a, b) => a - b);
  if (sorted.length === 7) return 'every day';
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    const [first, last] = [SHORT_WEEKDAYS[sorted[i]!]!, SHORT_WEEKDAYS[sorted[j]!]!];
    // Two days in a row read better as a list; three or more as a range.
    runs.push(j - i >= 2 ? `${first}–${last}` : j > i ? `${first}, ${last}` : first);
    i = j + 1;
  }
  return runs.join(', ') || 'no day';
}

/** `path: message` lines for a plan's rules the schema cannot say: two slots starting at the same weekday and time. */
export function planProblems(slots: readonly Slot[], root = 'slots'): string[] {
  const seen = new Map<string, number>();
  const problems: string[] = [];
  slots.forEach((slot, i) => {
    const clashes = new Map<number, number[]>();
    for (const day of [...new Set(slot.days)].sort()) {
      const key = `${day} ${slot.start}`;
      const other = seen.get(key);
      if (other !== undefined) clashes.set(other, [...(clashes.get(other) ?? []), day]);
      else seen.set(key, i);
    }
    for (const [other, days] of clashes) {
      problems.push(`${root}[${i}].start: slot ${other} also starts at ${slot.start} on ${days.map((d) => WEEKDAY_NAMES[d]).join(', ')}`);
    }
  });
  return problems;
}

/** The permutation of `list` for shuffle pass `pass` of `seed` (Fisher-Yates). */
export function shuffled<T>(list: readonly T[], seed: number, pass: number): T[] {
  const next = mulberry32((seed ^ Math.imul(pass + 1, 0x9e3779b1)) >>> 0);
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** What plays next in one slot: peek, then take when it fits; `begin` at each occurrence (a random slot draws its collection). */
export interface Picker {
  peek(): number;
  take(at: number): void;
  begin?(): void;
}

/**
 * A random slot's picker: at each occurrence one choice drawn by weight (mulberry32 of the slot's
 * seed, one draw per occurrence), then played in the slot's order, each choice keeping its own
 * place (inOrder continues where that collection last stopped).
 */
function randomPicker(slot: Slot, choices: NonNullable<Slot['choices']>, aired: Map<number, number>, shared: SharedPickers): Picker {
  const draw = mulberry32((slot.seed ?? 0) >>> 0);
  const total = choices.reduce((n, c) => n + c.weight, 0);
  const pickers: (Picker | undefined)[] = choices.map(() => undefined);
  let current = 0;
  const picker = () => (pickers[current] ??= pickerOf({ ...slot, videoIds: choices[current]!.videoIds, choices: undefined }, aired, shared));
  return {
    begin: () => {
      let x = draw() * total;
      current = choices.findIndex((c) => (x -= c.weight) < 0);
      if (current < 0) current = choices.length - 1;
    },
    peek: () => picker().peek(),
    take: (at) => picker().take(at),
  };
}

/**
 * leastRecentlyAired over `list`: the video that last started longest ago (never aired first),
 * ties by list order; `aired` is shared by every slot of the generation and its times only grow
 * (occurrences are worked through in time order). A heap of (last start as pushed, index), fixed
 * lazily: an entry whose video aired since it was pushed goes back in with its new time. A pick
 * costs O(log n) where a scan cost O(n): with collections of 20,000 videos a month of 200 slots
 * took 4.9 s of CPU scanning.
 */
export function leastRecentlyAired(list: readonly number[], aired: Map<number, number>): Picker {
  const keyOf = (i: number) => aired.get(list[i]!) ?? -Infinity;
  const keys: number[] = [];
  const heap: number[] = []; // indexes into list; heap[k]'s key is keys[k]
  const before = (a: number, b: number) => keys[a]! < keys[b]! || (keys[a] === keys[b] && heap[a]! < heap[b]!);
  const swap = (a: number, b: number) => {
    [heap[a], heap[b]] = [heap[b]!, heap[a]!];
    [keys[a], keys[b]] = [keys[b]!, keys[a]!];
  };
  const down = (k: number) => {
    for (;;) {
      const l = 2 * k + 1;
      const r = l + 1;
      let least = k;
      if (l < heap.length && before(l, least)) least = l;
      if (r < heap.length && before(r, least)) least = r;
      if (least === k) return;
      swap(k, least);
      k = least;
    }
  };
  // Bottom-up heapify: O(n), where pushing one by one sifted up each of 20,000 entries.
  list.forEach((_, i) => {
    heap.push(i);
    keys.push(keyOf(i));
  });
  for (let k = (heap.length >> 1) - 1; k >= 0; k--) down(k);
  const peek = () => {
    // The top is right once its key is its video's current last start (every other key is at most its own).
    while (keys[0] !== keyOf(heap[0]!)) {
      keys[0] = keyOf(heap[0]!);
      down(0);
    }
    return list[heap[0]!]!;
  };
  return { peek, take: (at) => void aired.set(peek(), at) };
}

/**
 * leastRecentlyAired pickers by list, one per generation: over one list and the generation's one
 * `aired` map a picker's next pick is a function of `aired` alone, so slots playing the same
 * collection share one heap instead of building 20,000 entries each (200 slots: 4 million).
 */
type SharedPickers = Map<readonly number[], Picker>;

function pickerOf(slot: Slot, aired: Map<number, number>, shared: SharedPickers): Picker {
  if (slot.choices) return randomPicker(slot, slot.choices, aired, shared);
  const list = slot.videoIds;
  if (slot.order === 'leastRecentlyAired') {
    let picker = shared.get(list);
    if (!picker) shared.set(list, (picker = leastRecentlyAired(list, aired)));
    return picker;
  }
  let position = 0;
  let pass = 0;
  let order = slot.order === 'shuffle' ? shuffled(list, slot.seed ?? 0, 0) : list;
  return {
    peek: () => order[position]!,
    take: () => {
      position++;
      if (position === order.length) {
        position = 0;
        pass++;
        if (slot.order === 'shuffle') order = shuffled(list, slot.seed ?? 0, pass);
      }
    },
  };
}

/** A running length in ms as spanMs measures a block (the sum of seconds, rounded to the microsecond). */
const lengthMs = (seconds: number) => Math.round(seconds * 1e6) / 1e3;
const secondsOf = (durations: ReadonlyMap<number, number>, id: number) => {
  const d = durations.get(id) ?? 0;
  return Number.isFinite(d) ? Math.max(0, d) : 0;
};

interface SlotOccurrence {
  slot: number;
  date: string;
  startTime: string;
  start: number;
  /** Where its end puts it (epoch ms), or Infinity without one. */
  end: number;
}

const wallOn = (date: string, hhmm: string, zone: string) => {
  const [hour, minute] = hhmm.split(':').map(Number) as [number, number];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return wallTimeToEpoch({ year, month, day, hour, minute, second: 0, millisecond: 0 }, zone);
};

/** Every occurrence of the plan's slots on [from, through], by instant (then plan order). */
function occurrences(slots: readonly Slot[], zone: string, from: string, through: string): SlotOccurrence[] {
  const list: SlotOccurrence[] = [];
  for (const date of datesOf(from, through)) {
    const weekday = isoWeekday(date);
    slots.forEach((slot, i) => {
      if (!slot.days.includes(weekday)) return;
      const start = wallOn(date, slot.start, zone);
      const end = slot.end === undefined ? Infinity : wallOn(slot.end > slot.start ? date : addDays(date, 1), slot.end, zone);
      list.push({ slot: i, date, startTime: `${date}T${slot.start}:00`, start, end });
    });
  }
  return list.sort((a, b) => a.start - b.start || a.slot - b.slot);
}

/** Busy occurrences by start, with the running latest end (whether an instant falls inside one). */
class BusyIndex {
  private readonly sorted: Busy[];
  private readonly latest: Busy[] = [];

  constructor(busy: readonly Busy[]) {
    this.sorted = [...busy].sort((a, b) => a.start - b.start);
    let latest: Busy | undefined;
    for (const b of this.sorted) {
      if (!latest || b.end > latest.end) latest = b;
      this.latest.push(latest);
    }
  }

  /** Index of the first occurrence starting at or after `at`. */
  private firstFrom(at: number): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]!.start < at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The occurrence covering `at` (started at or before it, ends after it), if any. */
  covering(at: number): Busy | undefined {
    const i = this.firstFrom(at + 1e-3);
    const before = i > 0 ? this.latest[i - 1] : undefined;
    return before && before.end > at ? before : undefined;
  }

  /** The start of the first occurrence starting in [at, limit), or limit. */
  nextStart(at: number, limit: number): number {
    const next = this.sorted[this.firstFrom(at)];
    return next && next.start < limit ? next.start : limit;
  }
}

const hoursOf = (ms: number) => String(Math.round(ms / 360_000) / 10);

/** The blocks a plan makes on [from, to] (see the rules above). */
export function generate(input: GenerateInput): Generation {
  const steps = generation(input);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Occurrences generate works through between two of generation's pauses (~1-2 ms of CPU). */
const STEP_OCCURRENCES = 64;

/**
 * generate() in steps: it pauses (yields) every STEP_OCCURRENCES occurrences, so a caller on a
 * shared event loop lets other requests run between them (a month of 48 slots a day is ~1,500
 * occurrences, ~25 ms of CPU in one piece otherwise); it returns the generation when done.
 */
export function* generation(input: GenerateInput): Generator<void, Generation, void> {
  const { zone, slots, durations } = input;
  const busy = new BusyIndex(input.busy);
  const aired = new Map(input.lastAired ?? []);
  // Made at a slot's first occurrence, a pause after each: one over a collection of 20,000 videos costs ~1.5 ms.
  const pickers: (Picker | undefined)[] = slots.map(() => undefined);
  const shared: SharedPickers = new Map();
  const fitOf = (list: readonly number[] | undefined) => {
    const fit = new BestFit(list ?? [], durations);
    return fit.size > 0 ? fit : undefined;
  };
  const filler = fitOf(input.filler);
  const padding = fitOf(input.padding);
  const fallback = fitOf(input.fallback);
  const rolls = new Rolls(durations);
  // The occurrences (by their index in `all`) that made a block: their remainder is dead air of kind 'remainder'.
  const made = new Set<number>();
  // Looking a week past the range finds every occurrence's successor: the plan repeats weekly.
  const all = occurrences(slots, zone, input.from, addDays(input.to, 7));
  const blocks: GeneratedBlock[] = [];
  const warnings: GenerationWarning[] = [];
  const entriesOn = new Map<string, number>(input.entriesBefore ?? []);
  for (let k = 0; k < all.length && all[k]!.date <= input.to; k++) {
    if (k > 0 && k % STEP_OCCURRENCES === 0) yield;
    const occurrence = all[k]!;
    const { slot: index, startTime, start, date } = occurrence;
    if (slots[index]!.offAir) continue;
    const warn = (message: string) => warnings.push({ slot: index, startTime, message });
    const covering = busy.covering(start);
    if (covering) {
      warn(`starts inside a block already on the schedule (until ${fastLocalDateTime(covering.end, zone)}); left out`);
      continue;
    }
    const following = all[k + 1]?.start ?? Infinity;
    const slotEnd = busy.nextStart(start, Math.min(following, occurrence.end));
    const available = slotEnd - start;
    if (occurrence.end === Infinity && available > LONG_OCCURRENCE_MS) {
      warn(`runs ${hoursOf(available)} h, until ${fastLocalDateTime(slotEnd, zone).slice(0, 16).replace('T', ' ')}: give the slot an end, or add an off-air slot`);
    } else if (occurrence.end !== Infinity && occurrence.end - slotEnd >= CUT_SHORT_MS) {
      warn(
        `ends at ${fastLocalDateTime(slotEnd, zone).slice(11, 16)}, ${hoursOf(occurrence.end - slotEnd)} h before its end ${slots[index]!.end}: ${slotEnd === following ? 'the next slot starts then' : 'a schedule block starts then'}`,
      );
    }
    const room = Math.min(MAX_BLOCK_VIDEOS, MAX_DAY_ENTRIES - (entriesOn.get(date) ?? 0));
    if (room <= 0) {
      warn(`left out: the channel-day ${date} already holds ${entriesOn.get(date) ?? 0} videos and live streams; a channel-day holds at most ${MAX_DAY_ENTRIES}`);
      continue;
    }
    const slot = slots[index]!;
    const videoIds: number[] = [];
    const roles: EntryRole[] = [];
    let seconds = 0;
    const push = (id: number, role: EntryRole) => {
      videoIds.push(id);
      roles.push(role);
      seconds += secondsOf(durations, id);
    };
    let picker = pickers[index];
    if (!picker) {
      picker = pickers[index] = pickerOf(slot, aired, shared);
      yield;
    }
    picker.begin?.();
    let programme = 0;
    while (videoIds.length < room) {
      const id = picker.peek();
      const d = secondsOf(durations, id);
      // A roll before this video (pre-roll before the first, mid-roll between two) plays only when both fit.
      const kind = programme === 0 ? 'preRoll' : 'midRoll';
      const roll = rolls.next(index, slot, kind);
      if (roll !== undefined && videoIds.length + 2 <= room && lengthMs(seconds + secondsOf(durations, roll) + d) <= available) {
        rolls.take(index, kind);
        push(roll, kind);
      }
      if (lengthMs(seconds + d) > available) break;
      picker.take(start + seconds * 1000);
      push(id, 'programme');
      programme++;
    }
    if (programme === 0) warn(`its next video (${secondsOf(durations, picker.peek())} s) is longer than the slot's ${available / 1000} s`);
    if (programme > 0) {
      const roll = rolls.next(index, slot, 'postRoll');
      if (roll !== undefined && videoIds.length < room && lengthMs(seconds + secondsOf(durations, roll)) <= available) {
        rolls.take(index, 'postRoll');
        push(roll, 'postRoll');
      }
      if (slot.padTo && padding) {
        const padEnd = Math.min(nextBoundary(start + lengthMs(seconds), slot.padTo, zone), slotEnd);
        bestFit(padding, padEnd - start, 'padding');
      }
    }
    if (filler) bestFit(filler, available, 'filler');
    if (fallback) bestFit(fallback, available, 'fallback');
    if (videoIds.length > 0 && videoIds.length >= room) {
      warn(`stopped at ${videoIds.length} videos: a block holds at most ${MAX_BLOCK_VIDEOS} and a channel-day ${MAX_DAY_ENTRIES}`);
    }
    if (videoIds.length === 0) continue;
    entriesOn.set(date, (entriesOn.get(date) ?? 0) + videoIds.length);
    made.add(k);
    blocks.push({
      slot: index,
      date,
      startTime,
      published: slot.published ?? true,
      videoIds,
      fillerVideos: videoIds.length - programme,
      roles,
      start,
      end: start + lengthMs(seconds),
      slotEnd,
    });

    /** Best fit from `fit` while a video ends within `limit` ms of the block's start (and the block has room). */
    function bestFit(fit: BestFit, limit: number, role: EntryRole) {
      while (videoIds.length < room) {
        const id = fit.pick(seconds, limit);
        if (id === undefined) return;
        push(id, role);
      }
    }
  }
  return { blocks, warnings, deadAir: deadAirOf(input, all, made, blocks, slots) };
}

/** The first instant at or after `at` whose wall clock in `zone` is a multiple of `minutes` past the hour. */
export function nextBoundary(at: number, minutes: PadTo, zone: string): number {
  const period = minutes * 60_000;
  const local = at + offsetMinutes(Math.floor(at), zone) * 60_000;
  const into = ((local % period) + period) % period;
  return into === 0 ? at : at + (period - into);
}

/**
 * Best fit over a list of videos: the one leaving the shortest remainder (the longest that fits;
 * ties: first in the list). Sorted once (longest first), each pick a binary search: a filler or
 * fallback collection of 20,000 videos costs log n a pick, not n.
 */
class BestFit {
  private readonly ids: number[] = [];
  private readonly seconds: number[] = [];

  constructor(list: readonly number[], durations: ReadonlyMap<number, number>) {
    const unique = [...new Set(list)].filter((id) => secondsOf(durations, id) > 0);
    const order = unique.map((id, i) => ({ id, i, d: secondsOf(durations, id) })).sort((a, b) => b.d - a.d || a.i - b.i);
    for (const o of order) {
      this.ids.push(o.id);
      this.seconds.push(o.d);
    }
  }

  get size(): number {
    return this.ids.length;
  }

  /** The video to play next after `seconds` of the block, ending within `limit` ms of its start, if one fits. */
  pick(seconds: number, limit: number): number | undefined {
    let lo = 0;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lengthMs(seconds + this.seconds[mid]!) <= limit) hi = mid;
      else lo = mid + 1;
    }
    return this.ids[lo];
  }
}

type RollKind = 'preRoll' | 'midRoll' | 'postRoll';

/**
 * Each slot's rolls: one video at a time, in the collection's order, continuing across the slot's
 * occurrences. Videos of 0 s are left out (as filler's are), each list filtered once however many
 * slots play it.
 */
class Rolls {
  private readonly places = new Map<string, number>();
  private readonly playable = new WeakMap<readonly number[], number[]>();

  constructor(private readonly durations: ReadonlyMap<number, number>) {}

  next(index: number, slot: Slot, kind: RollKind): number | undefined {
    const given = slot.rolls?.[kind];
    if (!given || given.length === 0) return undefined;
    let list = this.playable.get(given);
    if (!list) this.playable.set(given, (list = given.filter((id) => secondsOf(this.durations, id) > 0)));
    if (list.length === 0) return undefined;
    return list[(this.places.get(`${index} ${kind}`) ?? 0) % list.length];
  }

  take(index: number, kind: RollKind): void {
    const key = `${index} ${kind}`;
    this.places.set(key, (this.places.get(key) ?? 0) + 1);
  }
}

/**
 * The range's dead air: from its first date's midnight to the midnight after its last, the time
 * no generated block and no block that stays covers, split where a slot occurrence starts and
 * labelled by the slot whose time it is (see DeadAir).
 */
function deadAirOf(input: GenerateInput, all: readonly SlotOccurrence[], made: ReadonlySet<number>, blocks: readonly GeneratedBlock[], slots: readonly Slot[]): DeadAir[] {
  const from = wallOn(input.from, '00:00', input.zone);
  const to = wallOn(addDays(input.to, 1), '00:00', input.zone);
  const covered = [...blocks.map((b) => [b.start, b.end] as const), ...input.busy.map((b) => [b.start, b.end] as const)].filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  const gaps: Array<[number, number]> = [];
  let at = from;
  for (const [s, e] of covered) {
    if (s > at && at < to) gaps.push([at, Math.min(s, to)]);
    if (e > at) at = e;
  }
  if (at < to) gaps.push([at, to]);
  const deadAir: DeadAir[] = [];
  // The occurrence whose time an instant is: the last starting at or before it.
  let k = -1;
  for (const [gapStart, gapEnd] of gaps) {
    let s = gapStart;
    while (k + 1 < all.length && all[k + 1]!.start <= s) k++;
    while (s < gapEnd) {
      const nextStart = k + 1 < all.length ? all[k + 1]!.start : Infinity;
      const o = k >= 0 ? all[k] : undefined;
      // A slot with an end owns its time up to that end only: what follows is not its remainder.
      const ownEnd = o && o.end < nextStart ? o.end : Infinity;
      const e = Math.min(gapEnd, nextStart, s < ownEnd ? ownEnd : Infinity);
      const reason: DeadAir['reason'] = !o ? 'noSlot' : s >= ownEnd ? 'afterEnd' : slots[o.slot]!.offAir ? 'offAir' : made.has(k) ? 'remainder' : 'leftOut';
      if (e > s) deadAir.push({ slot: o ? o.slot : null, start: s, end: e, reason });
      s = e;
      if (s === nextStart) k++;
    }
  }
  return deadAir;
}

/** A block as lastAiredBefore reads it: its wall start, whether it loops, its videos' durations. */
export interface AiredBlock {
  startLocal: string;
  loopDaily: boolean;
  videoIds: readonly number[];
}

/**
 * When each video last started before `before` (epoch ms), from the blocks' occurrences on the
 * channel-local dates `dates` (the days before the range a caller looked back over).
 */
export function lastAiredBefore(
  blocks: readonly AiredBlock[],
  durations: ReadonlyMap<number, number>,
  zone: string,
  dates: readonly string[],
  before: number,
): Map<number, number> {
  const aired = new Map<number, number>();
  for (const block of blocks) {
    const blockDate = block.startLocal.slice(0, 10);
    for (const date of dates) {
      if (date !== blockDate && !(block.loopDaily && blockDate < date)) continue;
      const [year, month, day] = date.split('-').map(Number) as [number, number, number];
      const [hour, minute, second] = block.startLocal.slice(11, 19).split(':').map(Number) as [number, number, number];
      let at = wallTimeToEpoch({ year, month, day, hour, minute, second, millisecond: 0 }, zone);
      for (const id of block.videoIds) {
        if (at >= before) break;
        if (at > (aired.get(id) ?? -Infinity)) aired.set(id, at);
        at += secondsOf(durations, id) * 1000;
      }
    }
  }
  return aired;
}

/**
 * The source date each target date of a template copy takes its blocks from: a template of
 * `days` days starting at `sourceFrom` repeats over the targets (a week keeps weekdays).
 */
export function templateSourceOf(sourceFrom: string, days: number, target: string): string {
  const offset = ((daysBetween(sourceFrom, target) % days) + days) % days;
  return addDays(sourceFrom, offset);
}
