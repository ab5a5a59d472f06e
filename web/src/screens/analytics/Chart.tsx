// A uPlot chart as a React component: created once per data shape, resized with its box. The
// chart is an image for sighted people; every chart on the screen also says its figures in text.
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { categoryLabels } from './series.ts';

export function Chart({ options, data, label, height = 260 }: { options: Omit<uPlot.Options, 'width' | 'height'>; data: uPlot.AlignedData; label: string; height?: number }) {
  const { ref: box, width } = useElementSize();
  const target = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    if (!target.current || width === 0) return;
    plot.current = new uPlot({ ...options, width: Math.floor(width), height }, data, target.current);
    // What was drawn, in the markup (the browser tests read it): points on x, and series.
    target.current.dataset.points = String(plot.current.data[0].length);
    target.current.dataset.series = String(plot.current.series.length - 1);
    return () => {
      plot.current?.destroy();
      plot.current = null;
    };
    // Rebuilt when the data or options change; a resize only resizes.
  }, [options, data, width > 0]);

  useEffect(() => {
    if (plot.current && width > 0) plot.current.setSize({ width: Math.floor(width), height });
  }, [width, height]);

  return (
    <div ref={box} style={{ width: '100%' }}>
      <div ref={target} role="img" aria-label={label} />
    </div>
  );
}

/** The plot area's width in CSS pixels (the whole chart's until uPlot has laid the plot out). */
const plotWidth = (u: uPlot): number => (u.bbox?.width ? u.bbox.width / devicePixelRatio : u.width);

/** uPlot options for bars over categories (x = 0..n-1, labelled by `labels`). */
export function barOptions(labels: readonly string[], series: string, colour: string): Omit<uPlot.Options, 'width' | 'height'> {
  return {
    scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [
      {
        // Side by side while they fit their bars, else turned and thinned (categoryLabels): the
        // platforms' names overlapped at phone and half widths.
        values: (u, ticks) => {
          const { shown } = categoryLabels(labels, plotWidth(u));
          return ticks.map((t) => shown[Math.round(t)] ?? '');
        },
        splits: () => labels.map((_, i) => i),
        rotate: (u) => categoryLabels(labels, plotWidth(u)).rotate,
        size: (u) => categoryLabels(labels, plotWidth(u)).size,
      },
      { label: 'hours' },
    ],
    series: [{}, { label: series, stroke: colour, fill: colour, paths: uPlot.paths.bars!({ size: [0.6, 80] }), points: { show: false } }],
    legend: { show: false },
  };
}
