// A video's thumbnail at list size, or a plain box when it has none (or it fails to load), so rows
// keep their height. Decorative: the title beside it names the video (alt="").
import { Box, Image } from '@mantine/core';

export function Thumbnail({ url, width = 64 }: { url: string | null | undefined; width?: number }) {
  const height = Math.round((width * 9) / 16);
  if (!url) return <Box w={width} h={height} bg="gray.2" style={{ borderRadius: 4, flex: 'none' }} />;
  return <Image src={url} alt="" w={width} h={height} fit="cover" radius="sm" loading="lazy" style={{ flex: 'none' }} fallbackSrc="data:image/gif;base64,R0lGODlhAQABAAAAACw=" />;
}
