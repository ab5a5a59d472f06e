// The TV theme of an app: four colour roles, 6-digit hex without '#'. Roku apps created
// before the scheme became editable have no stored theme and report the stock colours.
import type { App } from '../data/apps.ts';

export interface TvTheme {
  /** Accent: focus rings, selected borders, active labels, 'Playing now' header. */
  primaryColor: string | null;
  /** Secondary text: times, hints, descriptions. */
  secondaryColor: string | null;
  /** Base surface; always null on androidtv, which has no separate background. */
  backgroundColor: string | null;
  /** Primary text: titles, channel names. */
  styleColor: string | null;
}

/**
 * What a Roku app without a stored theme reports: the look the Roku template shipped with
 * before the colours became editable, a purple accent on a near-black surface with white
 * titles and light grey secondary text. docs/studio.md documents these values.
 */
export const ROKU_STOCK_THEME: Readonly<TvTheme> = Object.freeze({
  primaryColor: '6f1ab1',
  secondaryColor: 'b3b3b3',
  backgroundColor: '101010',
  styleColor: 'ffffff',
});

type ThemedApp = Pick<App, 'platform' | 'primaryColor' | 'secondaryColor' | 'backgroundColor' | 'styleColor'>;

export function tvTheme(app: ThemedApp): TvTheme {
  const stored: TvTheme = {
    primaryColor: app.primaryColor,
    secondaryColor: app.secondaryColor,
    backgroundColor: app.platform === 'androidtv' ? null : app.backgroundColor,
    styleColor: app.styleColor,
  };
  // The import writes a theme whole or not at all: no colour at all means none was stored.
  if (app.platform === 'roku' && hasNoColours(stored)) return { ...ROKU_STOCK_THEME };
  return stored;
}

function hasNoColours(theme: TvTheme): boolean {
  return Object.values(theme).every((colour) => colour === null);
}
