// The guide number of each channel an app carries: the M3U's tvg-chno and the tuner's
// GuideNumber (docs/linear.md: Channel numbers). Players sort and tune by it, so it must be unique
// within the app and stay put when someone else's number changes.
//
// The rule, over ALL the app's channels in the app's order (not only those a key lists, so an app
// key and a viewer's link give a channel the same number):
// 1. The app's own channel number (apps[].channels[].channelNumber, the number the shipped apps
//    show) when it is one a tuner can carry: a whole number (1-99999), optionally with a
//    sub-channel (`5.1`). The first channel to claim a number keeps it; a later duplicate gets none.
// 2. Every other channel: its place in the app's order (1-based), or when that is taken, the next
//    free whole number above it.
// Pure: no I/O.

const TUNER_NUMBER = /^[1-9]\d{0,4}(\.\d{1,3})?$/;

export interface NumberedAssignment {
  channelId: number;
  /** The app's channel number, as stored (free text); null: none. */
  channelNumber: string | null;
}

/** Channel id to guide number, for the app's channels in the app's order. */
export function guideNumbers(assignments: readonly NumberedAssignment[]): Map<number, string> {
  const numbers = new Map<number, string>();
  const taken = new Set<string>();
  for (const { channelId, channelNumber } of assignments) {
    const own = channelNumber?.trim() ?? '';
    if (TUNER_NUMBER.test(own) && !taken.has(own) && !numbers.has(channelId)) {
      numbers.set(channelId, own);
      taken.add(own);
    }
  }
  assignments.forEach(({ channelId }, index) => {
    if (numbers.has(channelId)) return;
    let n = index + 1;
    while (taken.has(String(n))) n += 1;
    numbers.set(channelId, String(n));
    taken.add(String(n));
  });
  return numbers;
}
