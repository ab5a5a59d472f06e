// Trends: devices and watch time per day over a chosen range (7, 28, 90 days or custom dates) in
// the screen's zone, filtered by channel and platform, each total against the previous range of as
// many days; subscriptions and purchases per day the same way; CSV of each. From REST's
// /analytics/trends and /analytics/entitlements. Every chart's figures are also in a table.
import { Alert, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import uPlot from 'uplot';
import {
  entitlementsCsv,
  trendsCsv,
  useEntitlementTrends,
  useTrends,
  type EntitlementTrends,
  type SalesQuery,
  type TrendQuery,
  type Trends as TrendsAnswer,
} from '../../api/analytics.ts';
import { useAllChannels } from '../../api/channels.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { formMessage } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { Panel } from '../../ui/Panel.tsx';
import { saveFile } from '../../ui/save-file.ts';
import { useSubmit } from '../../ui/submit.ts';
import { Chart } from './Chart.tsx';
import { chartDate, watchTime } from './series.ts';
import { PLATFORMS, platformName } from './series.ts';
import { currencyLabel, money, revenueChart, salesWords } from './revenue.ts';
import { changeWords, dayX, daysBetween, MAX_DAYS, PRESETS, presetRange, shortDay, tickStep, todayIn, type Change } from './trends-series.ts';

const STORES = ['Apple', 'Google', 'Amazon', 'Roku'];

type Range = { from: string; to: string };

export function Trends({ zone }: { zone: string }) {
  const [preset, setPreset] = useState('28');
  const [custom, setCustom] = useState<Range>(() => presetRange(28, todayIn(zone) ?? todayIn('UTC')!));
  const today = todayIn(zone);
  const range = preset === 'custom' ? custom : today ? presetRange(Number(preset), today) : undefined;
  const days = range && daysBetween(range.from, range.to);

  return (
    <Stack>
      <Group align="flex-end">
        <SegmentedControl
          aria-label="Range"
          value={preset}
          onChange={setPreset}
          data={[...PRESETS.map((d) => ({ value: String(d), label: `${d} days` })), { value: 'custom', label: 'Custom' }]}
        />
        {preset === 'custom' ? (
          <>
            <TextInput label="From" type="date" value={custom.from} onChange={(e) => setCustom({ ...custom, from: e.currentTarget.value })} />
            <TextInput label="To" type="date" value={custom.to} onChange={(e) => setCustom({ ...custom, to: e.currentTarget.value })} />
          </>
        ) : null}
      </Group>
      {!range || !days || days > MAX_DAYS ? (
        <Alert color="red">Choose a From date on or before To, at most {MAX_DAYS} days, and a time zone such as Europe/Berlin.</Alert>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {range.from} to {range.to} ({days} {days === 1 ? 'day' : 'days'}, {zone}), compared with the {days} days before.
          </Text>
          <Watching range={range} zone={zone} days={days} />
          <Sales range={range} zone={zone} days={days} />
        </>
      )}
    </Stack>
  );
}

/** A total, and how it moved against the previous range. */
function Total({ label, value, change, days }: { label: string; value: string; change: Change; days: number }) {
  const words = changeWords(change, days);
  return (
    <Paper withBorder p="sm" aria-label={`${label}: ${value}, ${words.sentence}`} role="group">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={26} fw={700}>
        {value}
      </Text>
      <Text size="sm" c={words.colour} aria-hidden>
        {words.arrow} {words.text}
      </Text>
    </Paper>
  );
}

const changeCell = (change: Change, days: number) => {
  const words = changeWords(change, days);
  return (
    <Text size="sm" c={words.colour} span title={words.sentence}>
      {words.arrow} {words.text}
    </Text>
  );
};

/** The x axis of a chart of days: ticks every whole number of days that leaves TICK_SPACE px between labels at this width. */
const DAY_AXIS: uPlot.Axis = {
  splits: (u) => {
    const days = u.data[0].length;
    const first = u.data[0][0] ?? 0;
    const step = tickStep(days, u.bbox.width / uPlot.pxRatio) * 86_400;
    return Array.from({ length: Math.floor(((days - 1) * 86_400) / step) + 1 }, (_, i) => first + i * step);
  },
  values: (_u, splits) => splits.map((s) => shortDay(s)),
};

// x values are dates (their UTC midnight): drawn as those dates whatever the browser's zone.
const utcDate = (ts: number) => chartDate(ts, 'UTC');

/** Days on x (labels spaced so they never overlap), devices on the left axis, watch hours on the right. */
function trendOptions(): Omit<uPlot.Options, 'width' | 'height'> {
  return {
    tzDate: utcDate,
    scales: { x: { time: true }, devices: { range: (_u, _min, max) => [0, Math.max(1, max)] }, hours: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    series: [{}, { label: 'Unique devices', scale: 'devices', stroke: '#1c7ed6', width: 2 }, { label: 'Watch hours', scale: 'hours', stroke: '#2f9e44', width: 2, dash: [6, 4] }],
    axes: [
      DAY_AXIS,
      { scale: 'devices', label: 'devices', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000] },
      { scale: 'hours', side: 1, label: 'hours', grid: { show: false } },
    ],
  };
}

type Day = TrendsAnswer['daily'][number];
type ChannelLine = TrendsAnswer['channels'][number];
type SourceLine = TrendsAnswer['sources'][number];

function Watching({ range, zone, days }: { range: Range; zone: string; days: number }) {
  const [channel, setChannel] = useState<string | null>(null);
  const [source, setSource] = useState<string | null>(null);
  const channels = useAllChannels();
  const query: TrendQuery = { ...range, timezone: zone, channelId: channel ? Number(channel) : undefined, source: source ?? undefined };
  const trends = useTrends(query);
  const csv = useSubmit(async () => saveFile(await trendsCsv(query), `trends-${range.from}-${range.to}.csv`));
  const daily = trends.data?.daily;
  const data = useMemo<uPlot.AlignedData | null>(
    () => (daily ? [daily.map((d) => dayX(d.day)), daily.map((d) => d.uniqueDevices), daily.map((d) => d.watchSeconds / 3600)] : null),
    [daily],
  );
  const options = useMemo(trendOptions, []);

  return (
    <Panel
      title="Viewing per day"
      actions={
        <Button variant="light" onClick={() => void csv.run()} loading={csv.busy}>
          Download viewing CSV
        </Button>
      }
    >
      {csv.error ? <Alert color="red">{formMessage(csv.error)}</Alert> : null}
      <Group align="flex-end" mb="sm">
        <Select
          label="Channel"
          placeholder="All channels"
          clearable
          data={(channels.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          value={channel}
          onChange={setChannel}
        />
        <Select label="Platform" placeholder="All platforms" clearable data={PLATFORMS.map(([value, label]) => ({ value, label }))} value={source} onChange={setSource} />
      </Group>
      <Loaded query={trends} label="Loading viewing trends">
        {(found) => (
          <Stack>
            <SimpleGrid cols={{ base: 1, xs: 3 }}>
              <Total label="Unique devices" value={String(found.totals.current.uniqueDevices)} change={found.totals.change.uniqueDevices} days={days} />
              <Total label="Sessions" value={String(found.totals.current.sessions)} change={found.totals.change.sessions} days={days} />
              <Total label="Watch time" value={watchTime(found.totals.current.watchSeconds)} change={found.totals.change.watchSeconds} days={days} />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              A device is what an app names its viewer by (its user or device id); sessions count on the day they started.
            </Text>
            {data ? <Chart options={options} data={data} label={`Unique devices and watch hours per day, ${range.from} to ${range.to}`} /> : null}
            <SimpleGrid cols={{ base: 1, lg: 2 }}>
              <DataTable label="Viewing per channel" columns={channelColumns(days)} rows={found.channels} rowKey={(c) => c.channelId} empty="Nobody watched." minWidth={420} />
              <DataTable label="Viewing per platform" columns={sourceColumns(days)} rows={found.sources} rowKey={(s) => s.source} empty="Nobody watched." minWidth={420} />
            </SimpleGrid>
            <details>
              <summary>Figures per day</summary>
              <DataTable label="Viewing per day" columns={DAY_COLUMNS} rows={found.daily} rowKey={(d) => d.day} minWidth={360} striped />
            </details>
          </Stack>
        )}
      </Loaded>
    </Panel>
  );
}

const DAY_COLUMNS: Column<Day>[] = [
  { header: 'Day', cell: (d) => d.day },
  { header: 'Unique devices', cell: (d) => d.uniqueDevices },
  { header: 'Sessions', cell: (d) => d.sessions },
  { header: 'Watch time', cell: (d) => watchTime(d.watchSeconds) },
];

const comparedColumns = <T extends ChannelLine | SourceLine>(days: number): Column<T>[] => [
  { header: 'Devices', cell: (l) => l.current.uniqueDevices },
  { header: 'Watch time', cell: (l) => watchTime(l.current.watchSeconds) },
  { header: 'Change', cell: (l) => changeCell(l.change.watchSeconds, days) },
];
const channelColumns = (days: number): Column<ChannelLine>[] => [{ header: 'Channel', cell: (c) => c.channelName ?? `#${c.channelId}` }, ...comparedColumns<ChannelLine>(days)];
const sourceColumns = (days: number): Column<SourceLine>[] => [{ header: 'Platform', cell: (s) => platformName(s.source) }, ...comparedColumns<SourceLine>(days)];

type SaleDay = EntitlementTrends['daily'][number];
const SALE_FIGURES = [
  ['newSubscriptions', 'New subscriptions'],
  ['renewals', 'Renewals'],
  ['subscriptionRefunds', 'Refunded or revoked'],
  ['ppvPurchases', 'Pay-per-view purchases'],
  ['ppvRefunds', 'Pay-per-view refunds'],
] as const;

function Sales({ range, zone, days }: { range: Range; zone: string; days: number }) {
  const [store, setStore] = useState<string | null>(null);
  const query: SalesQuery = { ...range, timezone: zone, store: store ?? undefined };
  const sales = useEntitlementTrends(query);
  const csv = useSubmit(async () => saveFile(await entitlementsCsv(query), `entitlements-${range.from}-${range.to}.csv`));
  const columns: Column<SaleDay>[] = [{ header: 'Day', cell: (d) => d.day }, ...SALE_FIGURES.map(([key, label]) => ({ header: label, cell: (d: SaleDay) => d[key] }))];

  return (
    <Panel
      title="Subscriptions and purchases per day"
      actions={
        <Button variant="light" onClick={() => void csv.run()} loading={csv.busy}>
          Download purchases CSV
        </Button>
      }
    >
      {csv.error ? <Alert color="red">{formMessage(csv.error)}</Alert> : null}
      <Select label="Store" placeholder="All stores" clearable data={STORES} value={store} onChange={setStore} mb="sm" w={200} />
      <Loaded query={sales} label="Loading subscriptions and purchases">
        {(found) => {
          const active = found.daily.filter((d) => SALE_FIGURES.some(([key]) => d[key] > 0));
          return (
            <Stack>
              <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
                {SALE_FIGURES.map(([key, label]) => (
                  <Total key={key} label={label} value={String(found.totals.current[key])} change={found.totals.change[key]} days={days} />
                ))}
              </SimpleGrid>
              <DataTable
                label="Subscriptions and purchases per day"
                columns={columns}
                rows={active}
                rowKey={(d) => d.day}
                empty="No subscriptions or purchases in this range."
                minWidth={640}
                striped
              />
              <Revenue revenue={found.revenue} range={range} days={days} />
            </Stack>
          );
        }}
      </Loaded>
    </Panel>
  );
}

type RevenueAnswer = EntitlementTrends['revenue'];
type MoneyLine = RevenueAnswer['daily'][number];
type ProductLine = RevenueAnswer['products'][number];
type StoreLine = RevenueAnswer['stores'][number];

const moneyColumns = <T extends Omit<MoneyLine, 'day'>>(): Column<T>[] => [
  { header: 'Currency', cell: (m) => currencyLabel(m.currency) },
  { header: 'Sales', cell: (m) => m.sales },
  { header: 'Refunds', cell: (m) => m.refunds },
  { header: 'Net', cell: (m) => money(m.netMicros, m.currency) },
];

/** One currency's net money per day as bars from 0 (a day of refunds goes below), its amounts on the y axis. */
function revenueOptions(currency: string): Omit<uPlot.Options, 'width' | 'height'> {
  const say = (units: number) => money(Math.round(units * 1_000_000), currency);
  return {
    tzDate: utcDate,
    scales: {
      // Half a day either side, so the first and last days' bars are whole.
      x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
      y: { range: (_u, min, max) => [Math.min(0, min * 1.1), max > 0 ? max * 1.1 : 1] },
    },
    series: [
      {},
      {
        label: `Net revenue (${currency})`,
        stroke: '#e8590c',
        fill: '#e8590c',
        fillTo: 0,
        paths: uPlot.paths.bars!({ size: [0.6, 40] }),
        points: { show: false },
        value: (_u, v) => (v === null ? '–' : say(v)),
      },
    ],
    axes: [DAY_AXIS, { values: (_u, splits) => splits.map(say), size: 72 }],
  };
}

/**
 * Money as the stores reported it (issue 36 item 6): per currency, never added across currencies;
 * refunds taken off on their own day; what a store sold without a price is counted as unknown.
 * The chart draws one currency at a time (the main one, or the one picked): amounts in different
 * currencies on one axis would read as comparable.
 */
function Revenue({ revenue, range, days }: { revenue: RevenueAnswer; range: Range; days: number }) {
  const [picked, setPicked] = useState<string | null>(null);
  const chart = useMemo(() => revenueChart(revenue.daily, range.from, days, picked), [revenue.daily, range.from, days, picked]);
  const currency = chart?.currency;
  const options = useMemo(() => (currency ? revenueOptions(currency) : null), [currency]);
  const dayColumns: Column<MoneyLine>[] = [{ header: 'Day', cell: (d) => d.day }, ...moneyColumns<MoneyLine>()];
  const storeColumns: Column<StoreLine>[] = [{ header: 'Store', cell: (l) => l.store }, ...moneyColumns<StoreLine>()];
  const productColumns: Column<ProductLine>[] = [
    { header: 'Store', cell: (p) => p.store },
    { header: 'Product', cell: (p) => p.productId },
    { header: 'Kind', cell: (p) => (p.kind === 'ppv' ? 'Pay-per-view' : 'Subscription') },
    { header: 'Price', cell: (p) => (p.prices.length === 0 ? 'unknown' : p.prices.map((price) => money(price, p.currency)).join(', ')) },
    ...moneyColumns<ProductLine>(),
  ];
  return (
    <Stack gap="xs">
      <Text fw={600}>Revenue</Text>
      <Text size="sm" c="dimmed">
        Prices as each store reported them, per currency (never added across currencies); a refund is taken off on the day it happened. Amazon, and Google for one-time products,
        report no price: those sales are counted under Price unknown.
      </Text>
      {revenue.totals.length === 0 ? <Text size="sm">No sales in this range or the previous {days} days.</Text> : null}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        {revenue.totals.map((t) => (
          <Paper key={String(t.currency)} withBorder p="sm" role="group" aria-label={`Revenue in ${currencyLabel(t.currency)}`}>
            <Text size="sm" c="dimmed">
              {currencyLabel(t.currency)}
            </Text>
            <Text fw={700} size="lg">
              {t.currency === null ? salesWords(t.current.sales, t.current.refunds) : money(t.current.netMicros, t.currency)}
            </Text>
            <Text size="xs">
              {t.currency === null ? 'price not reported' : salesWords(t.current.sales, t.current.refunds)}; previous {days} days:{' '}
              {t.currency === null ? salesWords(t.previous.sales, t.previous.refunds) : money(t.previous.netMicros, t.currency)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      {chart && options ? (
        <Stack gap={4}>
          {chart.currencies.length > 1 ? (
            <Group gap="xs">
              <Text size="sm">Chart in</Text>
              <SegmentedControl aria-label="Chart currency" size="xs" value={chart.currency} onChange={setPicked} data={chart.currencies} />
            </Group>
          ) : null}
          <Chart
            options={options}
            data={chart.data}
            height={200}
            label={`Net revenue per day in ${chart.currency}, ${range.from} to ${range.to}: ${money(chart.totalMicros, chart.currency)} in all`}
          />
          <Text size="xs" c="dimmed">
            Net revenue in {chart.currency} per day (sales less refunds).
            {chart.currencies.length > 1
              ? ` Also sold in ${chart.currencies.filter((c) => c !== chart.currency).join(', ')}: pick it above; currencies are never added together.`
              : ''}
            {chart.unpriced.sales + chart.unpriced.refunds > 0 ? ` ${salesWords(chart.unpriced.sales, chart.unpriced.refunds)} with no price reported, not drawn.` : ''}
          </Text>
        </Stack>
      ) : null}
      <DataTable
        label="Revenue per day"
        columns={dayColumns}
        rows={revenue.daily}
        rowKey={(d) => `${d.day}|${String(d.currency)}`}
        empty="No sales in this range."
        minWidth={480}
        striped
      />
      <DataTable
        label="Revenue per store"
        columns={storeColumns}
        rows={revenue.stores}
        rowKey={(l) => `${l.store}|${String(l.currency)}`}
        empty="No sales in this range."
        minWidth={480}
      />
      <DataTable
        label="Revenue per product"
        columns={productColumns}
        rows={revenue.products}
        rowKey={(p) => `${p.store}|${p.kind}|${p.productId}|${String(p.currency)}`}
        empty="No sales in this range."
        minWidth={640}
      />
    </Stack>
  );
}
