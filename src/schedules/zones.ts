// Time zone ids as clients send them: IANA ids in any letter case, or Windows ids (e.g.
// "Eastern Standard Time", what .NET-based TV clients report), mapped through the CLDR table of
// windows-iana. Every accepted spelling resolves to ONE canonical name before anything else sees
// it: luxon and Intl keep a formatter per zone string for ever, so passing spellings through as
// sent let a caller grow the heap by ~100 KB per new spelling (aMeRiCa/new_york, AMERICA/new_york...).
import { findIana, WINDOWS_TO_IANA_MAP } from 'windows-iana';

/** Longest zone id worth asking Intl about (the longest IANA id is 32 characters). */
const MAX_ZONE_LENGTH = 64;
const ZONE_TEXT = /^[A-Za-z0-9_+\-/ ().]+$/;

/**
 * Lower-cased spelling -> canonical id, for spellings that name a zone only. Bounded: the
 * spellings Intl accepts (IANA ids and aliases, case-folded) and the Windows ids are finite sets.
 */
const resolved = new Map<string, string>();

/** The canonical IANA id (ICU's, the one Intl reports) for an IANA or Windows zone id, or undefined when it names no zone. */
export function resolveZone(text: string): string | undefined {
  const spelling = text.trim();
  if (spelling.length === 0 || spelling.length > MAX_ZONE_LENGTH || !ZONE_TEXT.test(spelling)) return undefined;
  const key = spelling.toLowerCase();
  const known = resolved.get(key);
  if (known !== undefined) return known;
  const zone = canonicalIana(spelling) ?? windowsZone(key);
  if (zone !== undefined) resolved.set(key, zone);
  return zone;
}

/** Intl matches IANA ids and their aliases case-insensitively and reports the canonical id. */
function canonicalIana(spelling: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: spelling }).resolvedOptions().timeZone;
  } catch {
    return undefined; // RangeError: not a zone
  }
}

function windowsZone(lowerCased: string): string | undefined {
  // findIana is case-sensitive; clients are not always.
  const windowsName = WINDOWS_TO_IANA_MAP.find((entry) => entry.windowsName.toLowerCase() === lowerCased)?.windowsName;
  // The first IANA id is CLDR's primary zone for the Windows id (territory 001).
  const iana = windowsName === undefined ? undefined : findIana(windowsName)[0];
  return iana === undefined ? undefined : canonicalIana(iana);
}

/** How many spellings are remembered (for tests: it must stay bounded). */
export function resolvedSpellings(): number {
  return resolved.size;
}
