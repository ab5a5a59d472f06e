#!/usr/bin/env bash
# Regenerates the linear output's slate (docs/linear.md: what airs the slate): for each rung, ten
# 1-second MPEG-TS segments (H.264 + AAC silence, a plain dark card) with one continuous timeline
# 0..10 s. The live playlists air them in stretches of at most ten, a discontinuity before each
# stretch, so timestamps never run backwards without one. Tiny by design (ultrafast, low bitrate):
# the service serves them itself at /api/v1/live/slate/{WxH}/{n}.ts. Run from the repository root;
# commit assets/slate/ after.
set -euo pipefail
OUT=assets/slate
SEGMENTS=10
RUNGS="426x240 640x360 854x480 1280x720 1920x1080"
command -v ffmpeg >/dev/null || { echo "make-slate: ffmpeg is needed" >&2; exit 1; }
rm -rf "$OUT"
for rung in $RUNGS; do
  dir="$OUT/$rung"
  mkdir -p "$dir"
  ffmpeg -nostdin -loglevel error -y \
    -f lavfi -i "color=c=0x1d2733:s=${rung}:r=25:d=${SEGMENTS}" \
    -f lavfi -i "anullsrc=r=48000:cl=stereo" -t "$SEGMENTS" \
    -c:v libx264 -preset ultrafast -profile:v main -pix_fmt yuv420p -b:v 40k -g 25 -keyint_min 25 -sc_threshold 0 \
    -c:a aac -b:a 32k -ac 2 -ar 48000 \
    -f hls -hls_time 1 -hls_list_size 0 -hls_segment_type mpegts \
    -hls_segment_filename "$dir/%d.ts" "$dir/index.m3u8"
  rm -f "$dir/index.m3u8"
done
ls -l "$OUT"/*/ | head -80
