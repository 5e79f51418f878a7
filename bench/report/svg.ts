/**
 * Minimal SVG charts written by the benchmark itself (no plotting dependency): a line chart of series over an index,
 * and a grouped bar chart. Text is escaped; sizes are fixed so the README renders them at a readable width.
 */

const WIDTH = 760;
const HEIGHT = 360;
const PAD = { left: 70, right: 190, top: 36, bottom: 46 };
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A "nice" axis maximum and tick step for values up to `max`. */
function ticks(max: number): { top: number; step: number } {
  const raw = Math.max(max, 1e-9) / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  return { top: Math.ceil(max / step) * step, step };
}

function frame(title: string, xLabel: string, yLabel: string, top: number, step: number, body: string[]): string {
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const y = (v: number): number => PAD.top + plotH - (v / top) * plotH;
  const grid: string[] = [];
  for (let v = 0; v <= top + step / 2; v += step) {
    const label = v >= 1000 ? `${+(v / 1000).toFixed(1)}k` : `${+v.toFixed(2)}`;
    grid.push(
      `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end">${label}</text>`
    );
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="sans-serif" font-size="11">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>`,
    ...grid,
    `<text x="${(PAD.left + WIDTH - PAD.right) / 2}" y="${HEIGHT - 10}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text transform="translate(16 ${PAD.top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
    ...body,
    '</svg>',
  ].join('\n');
}

function legend(names: string[]): string[] {
  return names.flatMap((name, i) => [
    `<rect x="${WIDTH - PAD.right + 12}" y="${PAD.top + i * 18}" width="12" height="12" fill="${COLORS[i % COLORS.length]}"/>`,
    `<text x="${WIDTH - PAD.right + 30}" y="${PAD.top + i * 18 + 10}">${esc(name)}</text>`,
  ]);
}

/** Series plotted against their index (1-based on the axis); `hLines` are labelled horizontal references. */
export function lineChart(opts: {
  title: string;
  xLabel: string;
  yLabel: string;
  series: { name: string; values: number[] }[];
  hLines?: { label: string; value: number }[];
}): string {
  const n = Math.max(...opts.series.map((s) => s.values.length), 2);
  const max = Math.max(...opts.series.flatMap((s) => s.values), ...(opts.hLines ?? []).map((h) => h.value));
  const { top, step } = ticks(max);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number): number => PAD.left + (i / (n - 1)) * plotW;
  const y = (v: number): number => PAD.top + plotH - (v / top) * plotH;
  const body = opts.series.map((s, k) => {
    const d = s.values.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join('');
    return `<path d="${d}" fill="none" stroke="${COLORS[k % COLORS.length]}" stroke-width="1.5"/>`;
  });
  for (const h of opts.hLines ?? []) {
    body.push(
      `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(h.value)}" y2="${y(h.value)}" stroke="#555" stroke-dasharray="4 3"/>`,
      `<text x="${WIDTH - PAD.right - 4}" y="${y(h.value) - 4}" text-anchor="end" fill="#555">${esc(h.label)}</text>`
    );
  }
  body.push(`<text x="${PAD.left}" y="${HEIGHT - 28}">1</text>`);
  body.push(`<text x="${WIDTH - PAD.right}" y="${HEIGHT - 28}" text-anchor="end">${n}</text>`);
  body.push(...legend(opts.series.map((s) => s.name)));
  return frame(opts.title, opts.xLabel, opts.yLabel, top, step, body);
}

/** Groups of bars: one group per category, one bar per series. */
export function barChart(opts: {
  title: string;
  yLabel: string;
  categories: string[];
  series: { name: string; values: number[] }[];
}): string {
  const max = Math.max(...opts.series.flatMap((s) => s.values));
  const { top, step } = ticks(max);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const groupW = plotW / opts.categories.length;
  const barW = (groupW * 0.8) / opts.series.length;
  const body: string[] = [];
  opts.categories.forEach((c, g) => {
    opts.series.forEach((s, k) => {
      const v = s.values[g] ?? 0;
      const h = (v / top) * plotH;
      const bx = PAD.left + g * groupW + groupW * 0.1 + k * barW;
      body.push(
        `<rect x="${bx.toFixed(1)}" y="${(PAD.top + plotH - h).toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" fill="${COLORS[k % COLORS.length]}"/>`
      );
    });
    body.push(
      `<text x="${(PAD.left + (g + 0.5) * groupW).toFixed(1)}" y="${HEIGHT - PAD.bottom + 14}" text-anchor="middle">${esc(c)}</text>`
    );
  });
  body.push(...legend(opts.series.map((s) => s.name)));
  return frame(opts.title, '', opts.yLabel, top, step, body);
}
