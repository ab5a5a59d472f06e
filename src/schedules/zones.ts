// Time zone ids as clients send them: IANA ids, or Windows ids (e.g. "Eastern Standard Time",
// what .NET-based TV clients report), mapped through the CLDR table of windows-iana.
import { IANAZone } from 'luxon';
import { findIana, WINDOWS_TO_IANA_MAP } from 'windows-iana';

/** The IANA id for an IANA or Windows zone id, or undefined when it names no zone. */
export function resolveZone(text: string): string | undefined {
  if (IANAZone.isValidZone(text)) return text;
  const lower = text.toLowerCase();
  // findIana is case-sensitive; clients are not always.
  const windowsName = WINDOWS_TO_IANA_MAP.find((entry) => entry.windowsName.toLowerCase() === lower)?.windowsName;
  // The first IANA id is CLDR's primary zone for the Windows id (territory 001).
  const iana = windowsName === undefined ? undefined : findIana(windowsName)[0];
  return iana !== undefined && IANAZone.isValidZone(iana) ? iana : undefined;
}
