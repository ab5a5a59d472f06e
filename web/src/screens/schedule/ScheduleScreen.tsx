// Schedule: a channel's week (#/schedule/{channelId}/{weekStart}) in the channel's zone, one
// column per day as long as the day really is, blocks as bars (daily repeats lighter, unpublished
// dashed, live streams in their own colour, a now line); click an empty slot to create, drag a
// bar to move it (or change its start in the form), drag its bottom edge to make it longer or
// shorter (its own videos, fewer or again), copy a day; the guide rows TV apps receive.
// Drags are announced (an aria-live region) by the block's first programme and times, never its
// id; a drag the API refuses is said next to the block, scrolled into view and focused.
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { Alert, Badge, Box, Button, Checkbox, Group, Loader, Modal, Paper, ScrollArea, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useAllChannels } from '../../api/channels.ts';
import { ApiError, newIdempotencyKey } from '../../api/client.ts';
import { useBlocks, useCopyDay, useDays, useMoveBlock, useResizeBlock } from '../../api/schedules.ts';
import { navigate } from '../../router.ts';
import { FormAlert, formMessage } from '../../ui/errors.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { BlockForm, type BlockFormTarget } from './BlockForm.tsx';
import { ChannelPicker } from './ChannelPicker.tsx';
import { barLabel, barsOf, blockName, resizedVideoIds, wallWords, type Bar } from './days.ts';
import { addDays, clockOf, dayBounds, dayMinutes, hourMarks, msToWall, segmentsOf, slotStart, todayIn, weekDates, weekStartOf } from './geometry.ts';
import { GuidePreview } from './GuidePreview.tsx';
import { PreemptedShades, PreemptionWarnings } from './Preemptions.tsx';
import { useOnAir } from '../../api/on-air.ts';
import type { OnAir } from '../../api/types.ts';

/** Pixels per minute of real time. */
const PX = 0.7;
/** A bar's least height, so a short block can be read and clicked. */
const MIN_BAR_PX = 14;
/** Keyboard moves: M picks a bar up, arrows move it 15 minutes or a day, Enter or Space drops it, Escape cancels. */
const KEYBOARD_CODES = { start: ['KeyM'], cancel: ['Escape'], end: ['Enter', 'Space'] };
const keyboardMove: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const day = (context.collisionRect?.width ?? 110) + 8;
  const step: Record<string, [number, number]> = { ArrowDown: [0, 15 * PX], ArrowUp: [0, -15 * PX], ArrowRight: [day, 0], ArrowLeft: [-day, 0] };
  const move = step[event.code];
  if (!move) return undefined;
  event.preventDefault();
  return { x: currentCoordinates.x + move[0], y: currentCoordinates.y + move[1] };
};
const INSTRUCTIONS = {
  draggable:
    "Press Enter to open this block. To move it, press M, then the arrow keys (15 minutes up or down, a day left or right), then Enter to drop it or Escape to cancel. On a block's end handle, M then the up and down arrows make it 15 minutes shorter or longer.",
};

/** dnd-kit's own announcements name draggables by their ids: the week says its own (Week's live region) instead. */
const SILENT: Announcements = { onDragStart: () => undefined, onDragOver: () => undefined, onDragEnd: () => undefined, onDragCancel: () => undefined };

/** Where a drag would put a block: a new start (a move), or a new length in minutes (its end dragged). */
type DragTarget = { kind: 'move'; bar: Bar; startTime: string } | { kind: 'resize'; bar: Bar; minutes: number };

/** A drag the API refused, said beside the block dragged. */
interface DragFailure {
  key: string;
  kind: 'move' | 'resize';
  error: unknown;
}

const COLOURS = { block: 'var(--mantine-color-blue-6)', live: 'var(--mantine-color-grape-6)', unpublished: 'var(--mantine-color-gray-5)' };

export function ScheduleScreen({ rest }: { rest: string[] }) {
  const channelList = useAllChannels();
  const channels = channelList.data;
  const channelId = rest[0] ? Number(rest[0]) : channels?.[0]?.id;
  const channel = channels?.find((c) => c.id === channelId);
  const zone = channel?.timezone ?? 'UTC';
  const week = rest[1] && /^\d{4}-\d\d-\d\d$/.test(rest[1]) ? weekStartOf(rest[1]) : weekStartOf(todayIn(zone));

  return (
    <Stack>
      <Title order={2}>Schedule</Title>
      {channelList.error ? <FormAlert error={channelList.error} /> : null}
      <ChannelPicker channels={channels} value={channelId} onChange={(id) => navigate('schedule', id, rest[1] ?? week)} />
      {channels && channels.length === 0 && <Text>No channels yet: create one on the Channels screen.</Text>}
      {channel && <Week key={`${channel.id}-${week}`} channelId={channel.id} zone={zone} week={week} />}
    </Stack>
  );
}

function Week({ channelId, zone, week }: { channelId: number; zone: string; week: string }) {
  const dates = useMemo(() => weekDates(week), [week]);
  // The day before the week too: its blocks may run past midnight into Monday.
  const asked = useMemo(() => [addDays(week, -1), ...dates], [week, dates]);
  const expanded = useDays(channelId, asked);
  const blocks = useBlocks(channelId, addDays(week, -1), dates[6]!);
  const onAir = useOnAir(channelId, dates[0]!, dates[6]!).data;
  const days = expanded.data;
  const error = expanded.error ?? blocks.error;
  const move = useMoveBlock(channelId);
  const resize = useResizeBlock(channelId);
  const [form, setForm] = useState<BlockFormTarget | null>(null);
  const [copyFrom, setCopyFrom] = useState<string | null>(null);
  const [now, setNow] = useState(Date.now());

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);

  const bars = useMemo(() => (days && blocks.data ? barsOf(days, zone, new Map(blocks.data.map((b) => [b.id, b.startTime.slice(0, 10)]))) : []), [days, blocks.data, zone]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { keyboardCodes: KEYBOARD_CODES, coordinateGetter: keyboardMove, scrollBehavior: 'auto' }),
  );
  const tallest = Math.max(...dates.map((d) => dayMinutes(d, zone)));

  // What a screen reader hears while a block moves, by its programme and times (never its id).
  const [said, setSaid] = useState('');
  const [failure, setFailure] = useState<DragFailure | null>(null);
  const clock = (ms: number) => clockOf(ms, zone);
  const nameOf = (bar: Bar) => blockName(bar, clock);
  const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

  /** Where the drag would put its block now: the bar's own time moved by the drag's distance, snapped. */
  function targetOf(event: DragMoveEvent | DragEndEvent): DragTarget | undefined {
    const id = String(event.active.id);
    // To the nearest 5 minutes for a pointer, the nearest 15 (the arrow step) for the keyboard.
    const step = event.activatorEvent instanceof KeyboardEvent ? 15 : 5;
    if (id.startsWith(RESIZE)) {
      const bar = bars.find((b) => b.key === id.slice(RESIZE.length));
      if (!bar || bar.blockId === null) return undefined;
      const minutes = Math.round(((bar.end - bar.start) / 60_000 + event.delta.y / PX) / step) * step;
      return { kind: 'resize', bar, minutes: Math.max(step, minutes) };
    }
    const bar = bars.find((b) => b.key === id);
    const date = event.over ? String(event.over.id) : undefined;
    if (!bar || bar.blockId === null || !date) return undefined;
    // The bar's own time of day moved by the drag's vertical distance, in the column it is over.
    const [own] = segmentsOf(bar.start, bar.end, dates, zone);
    if (!own) return undefined;
    return { kind: 'move', bar, startTime: slotStart(date, zone, own.top + event.delta.y / PX + step / 2, step) };
  }

  const targetWords = (target: DragTarget) => (target.kind === 'move' ? `start ${wallWords(target.startTime)}` : `end about ${clock(target.bar.start + target.minutes * 60_000)}`);

  // The place last said while a drag moves: said again only when it changes (a pointer moves a pixel
  // at a time, and the column under a block is known one event late: onDragOver says it then).
  const lastSaid = useRef<string | null>(null);
  const placeOf = (target: DragTarget) => (target.kind === 'move' ? target.startTime : String(target.minutes));

  function onDragStart(event: DragStartEvent) {
    setFailure(null);
    const id = String(event.active.id);
    const bar = bars.find((b) => b.key === (id.startsWith(RESIZE) ? id.slice(RESIZE.length) : id));
    if (!bar) return;
    lastSaid.current = id.startsWith(RESIZE) ? String(Math.round((bar.end - bar.start) / 60_000)) : msToWall(bar.start, zone);
    setSaid(
      id.startsWith(RESIZE)
        ? `Picked up the end of ${nameOf(bar)}, ending at ${clock(bar.end)}. Up and down make it shorter or longer.`
        : `Picked up ${nameOf(bar)}, playing ${clock(bar.start)} to ${clock(bar.end)}.`,
    );
  }

  function onDragMove(event: DragMoveEvent) {
    const target = targetOf(event);
    // Not moved yet (the column under a block just picked up is told too): the pick-up stays said.
    if (!target || (event.delta.x === 0 && event.delta.y === 0) || placeOf(target) === lastSaid.current) return;
    lastSaid.current = placeOf(target);
    setSaid(`${capital(nameOf(target.bar))} would ${targetWords(target)}.`);
  }

  function onDragEnd(event: DragEndEvent) {
    const target = targetOf(event);
    if (!target || target.bar.blockId === null) return;
    const { bar } = target;
    const name = nameOf(bar);
    const blockId = target.bar.blockId;
    const failed = (error: unknown) => setFailure({ key: bar.key, kind: target.kind, error });
    if (target.kind === 'move') {
      if (target.startTime === msToWall(bar.start, zone)) return setSaid(`${capital(name)} stays where it was.`);
      setSaid(`Moving ${name} to ${wallWords(target.startTime)}.`);
      move.mutate(
        { blockId, startTime: target.startTime, loopDaily: bar.loopDaily },
        { onSuccess: () => setSaid(`Moved ${name} to ${wallWords(target.startTime)}.`), onError: failed },
      );
      return;
    }
    // The occurrence's videos give each one's length; the block's current list (read fresh) is what repeats.
    const lengthOf = new Map(bar.videos.map((v) => [v.videoId, v.seconds]));
    setSaid(`Making ${name} ${targetWords(target).replace('end', 'end at')}.`);
    resize.mutate(
      {
        blockId,
        videoIds: (current) =>
          resizedVideoIds(
            current.map((videoId) => ({ videoId, seconds: lengthOf.get(videoId) ?? 0 })),
            target.minutes * 60,
          ),
      },
      { onSuccess: () => setSaid(`${capital(name)} now ends about ${clock(bar.start + target.minutes * 60_000)}.`), onError: failed },
    );
  }

  function onDragCancel(event: DragEndEvent) {
    const id = String(event.active.id);
    const bar = bars.find((b) => b.key === (id.startsWith(RESIZE) ? id.slice(RESIZE.length) : id));
    if (bar) setSaid(`Cancelled: ${nameOf(bar)} stays at ${clock(bar.start)} to ${clock(bar.end)}.`);
  }

  // A refused drag is said beside its block; when that block is not drawn this week, above the week.
  const failedHere = failure !== null && bars.some((b) => b.key === failure.key);

  return (
    <Stack gap="sm">
      <Group gap="xs" wrap="wrap">
        <Button variant="default" onClick={() => navigate('schedule', channelId, addDays(week, -7))}>
          Previous week
        </Button>
        <Button variant="default" onClick={() => navigate('schedule', channelId, weekStartOf(todayIn(zone)))}>
          This week
        </Button>
        <Button variant="default" onClick={() => navigate('schedule', channelId, addDays(week, 7))}>
          Next week
        </Button>
        <Text size="sm">
          Week of {week} in {zone}
        </Text>
        <Legend />
      </Group>
      {error ? <FormAlert error={error} /> : null}
      <PreemptionWarnings onAir={onAir} zone={zone} />
      {failure && !failedHere ? <DragFailureAlert failure={failure} bar={undefined} zone={zone} onClose={() => setFailure(null)} /> : null}
      <VisuallyHidden role="status" aria-live="assertive" aria-atomic data-testid="week-announcer">
        {said}
      </VisuallyHidden>
      {!days || !blocks.data ? (
        <Loader aria-label="Loading the week" />
      ) : (
        <DndContext
          sensors={sensors}
          autoScroll={false}
          accessibility={{ screenReaderInstructions: INSTRUCTIONS, announcements: SILENT }}
          onDragStart={onDragStart}
          onDragMove={onDragMove}
          // A move's event carries the column it was over before it moved: a day's move by the arrow
          // keys (one jump, no further moves) is said once the column under it changes.
          onDragOver={onDragMove}
          onDragEnd={onDragEnd}
          onDragCancel={onDragCancel}
        >
          <ScrollArea type="auto" offsetScrollbars>
            <Group align="flex-start" gap={4} wrap="nowrap" miw={7 * 120 + 50}>
              <HourAxis date={dates.find((d) => dayMinutes(d, zone) === tallest)!} zone={zone} />
              {dates.map((date) => (
                <Column
                  key={date}
                  date={date}
                  zone={zone}
                  bars={bars}
                  dates={dates}
                  now={now}
                  onAir={onAir}
                  failure={failedHere ? failure : null}
                  onCloseFailure={() => setFailure(null)}
                  onCreate={(startTime) => setForm({ kind: 'new', startTime })}
                  onOpen={(bar) => (bar.blockId === null ? navigate('live-streams', channelId) : setForm({ kind: 'edit', blockId: bar.blockId }))}
                  onCopy={() => setCopyFrom(date)}
                />
              ))}
            </Group>
          </ScrollArea>
        </DndContext>
      )}
      {form && <BlockForm channelId={channelId} zone={zone} target={form} onClose={() => setForm(null)} onSaved={() => setForm(null)} />}
      {copyFrom && <CopyDay channelId={channelId} from={copyFrom} dates={dates} onClose={() => setCopyFrom(null)} onCopied={() => setCopyFrom(null)} />}
      <GuidePreview channelId={channelId} zone={zone} dates={dates} />
    </Stack>
  );
}

function Legend() {
  const item = (label: string, style: React.CSSProperties) => (
    <Group gap={4} wrap="nowrap">
      <Box w={14} h={14} style={{ borderRadius: 3, ...style }} />
      <Text size="xs">{label}</Text>
    </Group>
  );
  return (
    <Group gap="sm">
      {item('Published', { background: COLOURS.block })}
      {item('Daily repeat', { background: COLOURS.block, opacity: 0.45 })}
      {item('Unpublished', { border: `2px dashed ${COLOURS.unpublished}` })}
      {item('Live stream', { background: COLOURS.live })}
      {item('Now', { background: 'var(--mantine-color-red-6)', height: 3 })}
    </Group>
  );
}

function HourAxis({ date, zone }: { date: string; zone: string }) {
  return (
    <Box w={44} style={{ flex: 'none' }} aria-hidden>
      <Box h={56} />
      <Box pos="relative" h={dayMinutes(date, zone) * PX}>
        {hourMarks(date, zone).map((m) => (
          <Text key={m.top} size="xs" c="dimmed" pos="absolute" top={m.top * PX - 7} right={4}>
            {m.label}
          </Text>
        ))}
      </Box>
    </Box>
  );
}

interface ColumnProps {
  date: string;
  zone: string;
  bars: Bar[];
  dates: string[];
  now: number;
  onCreate: (startTime: string) => void;
  onOpen: (bar: Bar) => void;
  onCopy: () => void;
  onAir: OnAir | undefined;
  /** A refused drag, said below its block's bar in the column the bar starts in. */
  failure: DragFailure | null;
  onCloseFailure: () => void;
}

function Column({ date, zone, bars, dates, now, onCreate, onOpen, onCopy, onAir, failure, onCloseFailure }: ColumnProps) {
  const { setNodeRef, isOver } = useDroppable({ id: date });
  const minutes = dayMinutes(date, zone);
  const bounds = dayBounds(date, zone);
  const weekday = new Date(`${date}T12:00:00Z`).toLocaleDateString('en', { weekday: 'short', timeZone: 'UTC' });
  const pieces = bars.flatMap((bar) =>
    segmentsOf(bar.start, bar.end, dates, zone)
      .filter((s) => s.date === date)
      .map((s) => ({ bar, s })),
  );
  return (
    <Box style={{ flex: '1 0 110px' }} miw={110}>
      <Stack gap={2} h={56} align="center" justify="center">
        <Text size="sm" fw={600}>
          {weekday} {date.slice(5)}
          {minutes !== 1440 && (
            <Badge ml={4} size="xs" variant="light" color="orange">
              {minutes / 60} h
            </Badge>
          )}
        </Text>
        <Group gap={2}>
          <Button size="compact-xs" variant="subtle" aria-label={`Add a block on ${date}`} onClick={() => onCreate(`${date}T08:00:00`)}>
            Add
          </Button>
          <Button size="compact-xs" variant="subtle" aria-label={`Copy ${date} to other days`} onClick={onCopy}>
            Copy
          </Button>
        </Group>
      </Stack>
      <Box
        ref={setNodeRef}
        data-testid={`day-${date}`}
        aria-label={`Day ${date}`}
        pos="relative"
        h={minutes * PX}
        style={{
          backgroundColor: isOver ? 'var(--mantine-color-blue-0)' : undefined,
          border: '1px solid var(--mantine-color-gray-3)',
          cursor: 'copy',
          backgroundImage: `repeating-linear-gradient(to bottom, transparent 0, transparent ${60 * PX - 1}px, var(--mantine-color-gray-2) ${60 * PX - 1}px, var(--mantine-color-gray-2) ${60 * PX}px)`,
        }}
        onClick={(e) => {
          if (e.target !== e.currentTarget) return;
          const rect = e.currentTarget.getBoundingClientRect();
          onCreate(slotStart(date, zone, (e.clientY - rect.top) / PX));
        }}
      >
        {pieces.map(({ bar, s }) => (
          <BarView key={`${bar.key}-${s.date}`} bar={bar} top={s.top} height={s.height} continued={s.continued} zone={zone} onOpen={() => onOpen(bar)} />
        ))}
        {pieces
          .filter(({ bar }) => !bar.live && bar.blockId !== null && bar.end > bounds.start && bar.end <= bounds.end)
          .map(({ bar, s }) => (
            <ResizeHandle key={`${bar.key}-${s.date}-end`} bar={bar} bottom={s.top * PX + Math.max(s.height * PX, MIN_BAR_PX)} zone={zone} />
          ))}
        <PreemptedShades onAir={onAir} date={date} dates={dates} zone={zone} />
        {pieces
          .filter(({ bar, s }) => failure !== null && bar.key === failure.key && !s.continued)
          .map(({ bar, s }) => (
            // Below the bar, over the next days' columns (the last days' leftwards), above every bar.
            <Box
              key="failure"
              pos="absolute"
              top={s.top * PX + Math.max(s.height * PX, MIN_BAR_PX) + 4}
              w={300}
              style={{ zIndex: 10, ...(dates.indexOf(date) >= 4 ? { right: 0 } : { left: 0 }) }}
            >
              <DragFailureAlert failure={failure!} bar={bar} zone={zone} onClose={onCloseFailure} />
            </Box>
          ))}
        {now >= bounds.start && now < bounds.end && (
          <Box
            pos="absolute"
            left={0}
            right={0}
            top={((now - bounds.start) / 60_000) * PX}
            h={2}
            bg="red.6"
            style={{ pointerEvents: 'none', zIndex: 3 }}
            aria-label={`Now, ${clockOf(now, zone)}`}
            role="img"
          />
        )}
      </Box>
    </Box>
  );
}

/** A refused move or resize in words, naming the block dragged; it scrolls into view and takes the focus. */
function DragFailureAlert({ failure, bar, zone, onClose }: { failure: DragFailure; bar: Bar | undefined; zone: string; onClose: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    box.current?.focus();
  }, [failure]);
  const what = bar ? blockName(bar, (ms) => clockOf(ms, zone)) : 'the block';
  const conflict = failure.error instanceof ApiError && failure.error.code === 'schedule_conflict';
  return (
    <Alert
      ref={box}
      tabIndex={-1}
      color="red"
      role="alert"
      variant="filled"
      title={`${failure.kind === 'move' ? 'Not moved' : 'Not resized'}: ${what}`}
      withCloseButton
      closeButtonLabel="Close the message"
      onClose={onClose}
      style={{ textAlign: 'left', cursor: 'auto' }}
      onClick={(e) => e.stopPropagation()}
    >
      {formMessage(failure.error)}
      {conflict ? (failure.kind === 'move' ? ' Open the block to move it with "Allow overlap".' : ' Open the block to change its videos with "Allow overlap".') : ''}
    </Alert>
  );
}

function BarView({ bar, top, height, continued, zone, onOpen }: { bar: Bar; top: number; height: number; continued: boolean; zone: string; onOpen: () => void }) {
  const draggable = useDraggable({ id: bar.key, disabled: bar.live || continued });
  const { transform } = draggable;
  const colour = bar.live ? COLOURS.live : bar.published ? COLOURS.block : COLOURS.unpublished;
  const label = barLabel(bar, (ms) => clockOf(ms, zone)) + (continued ? ' (continued)' : '');
  return (
    <Paper
      component="button"
      type="button"
      ref={draggable.setNodeRef}
      {...draggable.listeners}
      {...draggable.attributes}
      aria-label={label}
      title={label}
      onClick={onOpen}
      pos="absolute"
      left={2}
      right={2}
      top={top * PX}
      h={Math.max(height * PX, MIN_BAR_PX)}
      p={2}
      style={{
        background: bar.published || bar.live ? colour : 'var(--mantine-color-gray-0)',
        color: bar.published || bar.live ? 'white' : 'var(--mantine-color-dark-7)',
        border: bar.published || bar.live ? '1px solid white' : `2px dashed ${colour}`,
        opacity: bar.repeat ? 0.5 : 1,
        overflow: 'hidden',
        textAlign: 'left',
        fontSize: 11,
        lineHeight: '12px',
        cursor: bar.live ? 'pointer' : 'grab',
        zIndex: transform ? 5 : 1,
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
      }}
    >
      {bar.live ? '● ' : ''}
      {clockOf(bar.start, zone)} {bar.title}
      {!bar.published && !bar.live ? ' (unpublished)' : ''}
    </Paper>
  );
}

/** Draggable ids of bars' end handles: the prefix, then the bar's key. */
const RESIZE = 'resize:';

/**
 * The end of a block's bar (`bottom`: the bar's drawn bottom, in pixels), dragged up or down to
 * make the block shorter or longer. It hangs below the bar, over its last 2 pixels only, so a
 * click on a short bar still opens the bar.
 */
function ResizeHandle({ bar, bottom, zone }: { bar: Bar; bottom: number; zone: string }) {
  const draggable = useDraggable({ id: `${RESIZE}${bar.key}` });
  const { transform } = draggable;
  // Not the bar's own name with a word before it: a search for the bar's name must not find its handle too.
  const label = `Resize the ${clockOf(bar.start, zone)}–${clockOf(bar.end, zone)} block: ${bar.title}${bar.videoCount > 1 ? ` and ${bar.videoCount - 1} more` : ''}`;
  return (
    <Box
      component="button"
      type="button"
      ref={draggable.setNodeRef}
      {...draggable.listeners}
      {...draggable.attributes}
      aria-label={label}
      title="Drag to make the block longer or shorter"
      pos="absolute"
      left="25%"
      right="25%"
      top={bottom - 2}
      h={6}
      p={0}
      style={{
        border: 'none',
        borderRadius: 4,
        background: 'var(--mantine-color-dark-3)',
        opacity: transform ? 0.9 : 0.45,
        cursor: 'ns-resize',
        zIndex: transform ? 6 : 2,
        transform: transform ? `translate3d(0, ${transform.y}px, 0)` : undefined,
      }}
    />
  );
}

function CopyDay({ channelId, from, dates, onClose, onCopied }: { channelId: number; from: string; dates: string[]; onClose: () => void; onCopied: () => void }) {
  const [to, setTo] = useState<string[]>([]);
  const [replace, setReplace] = useState(false);
  const [allowOverlap, setAllowOverlap] = useState(false);
  const [key] = useState(newIdempotencyKey);
  const copyDay = useCopyDay(channelId);
  const targets = [...dates.filter((d) => d !== from), ...[7, 8, 9, 10, 11, 12, 13].map((n) => addDays(dates[0]!, n))];
  const submit = useSubmit(async () => {
    await copyDay.mutateAsync({ from, body: { toDates: to, replace, ...(allowOverlap ? { allowOverlap } : {}) }, key });
    onCopied();
  });
  const { error, busy } = submit;
  return (
    <Modal opened onClose={onClose} title={`Copy the one-off blocks of ${from}`}>
      <Stack gap="xs">
        <FormAlert error={error} fields={['toDates']} />
        <Checkbox.Group label="Copy to" value={to} onChange={setTo}>
          <Group gap="xs" mt={4}>
            {targets.map((d) => (
              <Checkbox key={d} value={d} label={d} />
            ))}
          </Group>
        </Checkbox.Group>
        <Checkbox label="Replace what those days have" checked={replace} onChange={(e) => setReplace(e.currentTarget.checked)} />
        {error instanceof ApiError && error.code === 'schedule_conflict' && (
          <Checkbox label="Allow overlap" checked={allowOverlap} onChange={(e) => setAllowOverlap(e.currentTarget.checked)} />
        )}
        <Button onClick={() => void submit.run()} loading={busy} disabled={to.length === 0}>
          Copy day
        </Button>
      </Stack>
    </Modal>
  );
}
