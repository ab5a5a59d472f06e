// The preempted part of blocks on the week (shaded, from the on-air answer) and a warning per
// preemption saying how the guide, the XMLTV export and analytics will see it.
import { Alert, Box, Stack } from '@mantine/core';
import type { OnAir } from '../../api/types.ts';
import { clockOf, segmentsOf } from './geometry.ts';
import { preemptionWarnings } from './preemptions.ts';

/** Pixels per minute, as the week view draws (ScheduleScreen.tsx). */
const PX = 0.7;

export function PreemptionWarnings({ onAir, zone }: { onAir: OnAir | undefined; zone: string }) {
  if (!onAir) return null;
  const warnings = preemptionWarnings(onAir, (ms) => clockOf(ms, zone));
  if (warnings.length === 0) return null;
  return (
    <Alert color="orange" title="Live streams preempt scheduled programmes" role="status" aria-label="Preempted programmes">
      <Stack gap={2}>
        {warnings.map((w) => (
          <span key={w.key}>{w.text}</span>
        ))}
      </Stack>
    </Alert>
  );
}

/** The stretches blocks lose on one day column, hatched over the bars. */
export function PreemptedShades({ onAir, date, dates, zone }: { onAir: OnAir | undefined; date: string; dates: string[]; zone: string }) {
  if (!onAir) return null;
  const pieces = onAir.preempted.flatMap((p) =>
    segmentsOf(Date.parse(p.start), Date.parse(p.end), dates, zone)
      .filter((s) => s.date === date)
      .map((s) => ({ p, s })),
  );
  return (
    <>
      {pieces.map(({ p, s }) => (
        <Box
          key={`${p.blockId}-${p.start}-${s.date}`}
          role="img"
          aria-label={`Preempted ${clockOf(Date.parse(p.start), zone)}-${clockOf(Date.parse(p.end), zone)}: ${p.title}`}
          pos="absolute"
          left={0}
          right={0}
          top={s.top * PX}
          h={Math.max(s.height * PX, 2)}
          style={{ pointerEvents: 'none', zIndex: 2, background: 'repeating-linear-gradient(45deg, rgba(0,0,0,0.28) 0 4px, transparent 4px 8px)' }}
        />
      ))}
    </>
  );
}
