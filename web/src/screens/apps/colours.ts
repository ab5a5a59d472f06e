// Colours as the catalog spells them (6 hex digits, no '#') and as colour pickers and CSS want
// them ('#rrggbb'). Pure, so the conversions are tested without a browser.
export const toCss = (value: string | null | undefined): string => (value && /^[0-9a-fA-F]{6}$/.test(value) ? `#${value.toLowerCase()}` : 'transparent');

/** What a person typed or picked, in the catalog's spelling ('#AABBCC' -> 'aabbcc'); other text is kept for the API to refuse. */
export const fromInput = (value: string): string => value.trim().replace(/^#/, '').toLowerCase();

/** Black or white, whichever reads better on `background` (WCAG relative luminance). */
export function readableOn(background: string | null | undefined): '#000000' | '#ffffff' {
  if (!background || !/^[0-9a-fA-F]{6}$/.test(background)) return '#000000';
  const channel = (i: number) => {
    const c = parseInt(background.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

/** A file's bytes as the base64 text the catalog's images hold. */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The data URL that previews a stored image (PNG or JPEG, told by its first bytes). */
export const imageDataUrl = (base64: string): string => `data:${base64.startsWith('/9j/') ? 'image/jpeg' : 'image/png'};base64,${base64}`;
