/**
 * One small time-series chart (uPlot through uplot-react). This module is loaded lazily: the
 * dashboard's cards paint without waiting for uPlot. Colours come from the theme's CSS variables,
 * read from the chart's own element, and are read again when the theme changes.
 */
import { useLayoutEffect, useMemo, useRef, useState } from "react";
import type uPlot from "uplot";
import UplotReact from "uplot-react";
import "uplot/dist/uPlot.min.css";
import { useTheme } from "@/hooks/use-theme";
import { formatNumber } from "@/lib/format";
import { formatMinute, formatPercent } from "../lib/chart-data";
import "./charts.css";

export interface ChartSeriesStyle {
  label: string;
  /** A CSS custom property holding the line's colour: "--primary", "--chart-jira". */
  colourVar: string;
  dash?: number[];
  /** Shade the area under the line. */
  fill?: boolean;
  /** Mark each value with a dot: for a series with gaps, where a lone minute has no line to draw. */
  points?: boolean;
}

export interface TrafficChartProps {
  /** uPlot's aligned data: x (Unix seconds), then one array per series. */
  data: uPlot.AlignedData;
  /** Stable (a module constant): a new array rebuilds the chart. */
  series: readonly ChartSeriesStyle[];
  unit: "count" | "percent";
  height?: number;
}

interface Palette {
  axis: string;
  grid: string;
  lines: string[];
}

function readPalette(el: HTMLElement, series: readonly ChartSeriesStyle[]): Palette {
  const style = getComputedStyle(el);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    axis: read("--muted-foreground", "#71717a"),
    grid: read("--border", "#e4e4e7"),
    lines: series.map((s) => read(s.colourVar, "#71717a")),
  };
}

/** A translucent fill from a "#rrggbb" colour; none for anything else. */
const translucent = (colour: string): string | undefined => (/^#[0-9a-f]{6}$/i.test(colour) ? `${colour}26` : undefined);

const COUNT_STEPS = [
  1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000, 2_000, 2_500, 5_000, 10_000, 20_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
];

export default function TrafficChart({ data, series, unit, height = 150 }: TrafficChartProps) {
  const { theme } = useTheme();
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [palette, setPalette] = useState<Palette | null>(null);

  // The chart fills its box: measured before paint, then on every resize.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // The theme's colours as they are now (the .dark class has switched before the theme's listeners run).
  useLayoutEffect(() => {
    if (box.current) setPalette(readPalette(box.current, series));
  }, [theme, series]);

  // Everything but the size: rebuilt only when the colours or the series change, so a new width
  // is a resize and new data a redraw (uplot-react compares the options key by key).
  const base = useMemo<Omit<uPlot.Options, "width"> | null>(() => {
    if (!palette) return null;
    const format = unit === "percent" ? formatPercent : (v: number) => formatNumber(v);
    const axis: uPlot.Axis = {
      stroke: palette.axis,
      font: "11px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
      grid: { stroke: palette.grid, width: 1 },
      ticks: { stroke: palette.grid, width: 1, size: 4 },
    };
    return {
      height,
      padding: [8, 8, 0, 0],
      cursor: { drag: { x: false, y: false, setScale: false }, points: { size: 6 } },
      legend: { live: true },
      scales: {
        x: { time: true },
        y: {
          range: (_u, _min, max) => {
            const top = Math.max(unit === "percent" ? 5 : 4, Math.ceil((max || 0) * 1.15));
            return [0, unit === "percent" ? Math.min(100, top) : top];
          },
        },
      },
      axes: [
        { ...axis, space: 56, values: (_u, splits) => splits.map((t) => formatMinute(t * 1000)) },
        {
          ...axis,
          size: unit === "percent" ? 48 : 40,
          space: 28,
          incrs: unit === "count" ? COUNT_STEPS : undefined,
          values: (_u, splits) => splits.map((v) => format(v)),
        },
      ],
      series: [
        // The hour needs no date: ticks and the hover value read as the user's clock.
        { label: "Time", value: (_u, t) => (t === null || t === undefined ? "–" : formatMinute(t * 1000)) },
        ...series.map((s, i): uPlot.Series => ({
          label: s.label,
          stroke: palette.lines[i],
          width: 1.75,
          dash: s.dash,
          fill: s.fill ? translucent(palette.lines[i]!) : undefined,
          points: s.points ? { show: true, size: 5, fill: palette.lines[i] } : { show: false },
          spanGaps: false,
          value: (_u, v) => (v === null || v === undefined ? "–" : format(v)),
        })),
      ],
    };
  }, [palette, series, unit, height]);

  const options = useMemo(() => (base && width > 0 ? ({ ...base, width } as uPlot.Options) : null), [base, width]);

  return (
    <div ref={box} className="bk-chart w-full min-w-0" aria-hidden="true" style={{ minHeight: height }}>
      {options && <UplotReact options={options} data={data} />}
    </div>
  );
}
