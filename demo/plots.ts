/**
 * Pictures of a kernel's output buffers: a heat map for 2D outputs (rows x cols) and a
 * histogram for 1D ones. Each canvas carries its numbers in data attributes (`data-bins`,
 * `data-lo`, `data-hi`), so the end-to-end test can check what is drawn.
 */

export const HISTOGRAM_BINS = 32;

/** A rows x cols array as a heat map (blue low, red high), at most 256 px a side. */
export function heatMap(a: ArrayLike<number>, rows: number, cols: number, format: (v: number) => string): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.className = 'heatmap';
  canvas.width = cols;
  canvas.height = rows;
  const scale = Math.max(1, Math.floor(256 / Math.max(rows, cols)));
  canvas.style.width = `${cols * scale}px`;
  canvas.style.height = `${rows * scale}px`;
  const g = canvas.getContext('2d');
  if (!g) return canvas;
  const { lo, hi } = finiteRange(a, rows * cols);
  const img = g.createImageData(cols, rows);
  for (let i = 0; i < rows * cols; i++) {
    const t = hi > lo ? ((a[i] as number) - lo) / (hi - lo) : 0.5;
    img.data[i * 4] = Math.round(255 * t);
    img.data[i * 4 + 1] = Math.round(255 * (1 - Math.abs(2 * t - 1)) * 0.8);
    img.data[i * 4 + 2] = Math.round(255 * (1 - t));
    img.data[i * 4 + 3] = 255;
  }
  g.putImageData(img, 0, 0);
  canvas.title = `${rows} x ${cols}, ${format(lo)} .. ${format(hi)}`;
  return canvas;
}

/**
 * Counts of `a`'s finite values in HISTOGRAM_BINS equal bins from its least to its greatest
 * (the greatest falls in the last bin; all in the middle one when every value is equal).
 */
export function histogramCounts(a: ArrayLike<number>): { bins: number[]; lo: number; hi: number; nonFinite: number } {
  const { lo, hi } = finiteRange(a, a.length);
  const bins = new Array<number>(HISTOGRAM_BINS).fill(0);
  let nonFinite = 0;
  for (let i = 0; i < a.length; i++) {
    const v = a[i] as number;
    if (!Number.isFinite(v)) { nonFinite++; continue; }
    const b = hi > lo ? Math.min(HISTOGRAM_BINS - 1, Math.floor(((v - lo) / (hi - lo)) * HISTOGRAM_BINS)) : HISTOGRAM_BINS >> 1;
    bins[b] = (bins[b] ?? 0) + 1;
  }
  return { bins, lo, hi, nonFinite };
}

/** A 1D array's histogram, 320 x 90 px, with its range written under it. */
export function histogram(a: ArrayLike<number>, format: (v: number) => string): HTMLElement {
  const { bins, lo, hi, nonFinite } = histogramCounts(a);
  const canvas = document.createElement('canvas');
  canvas.className = 'histogram';
  const W = 320, H = 90, bar = W / HISTOGRAM_BINS;
  canvas.width = W;
  canvas.height = H;
  Object.assign(canvas.dataset, { bins: JSON.stringify(bins), lo: String(lo), hi: String(hi), nonFinite: String(nonFinite) });
  const top = Math.max(1, ...bins);
  const g = canvas.getContext('2d');
  if (g) {
    g.fillStyle = '#f6f8fa';
    g.fillRect(0, 0, W, H);
    g.fillStyle = '#2b6cb0';
    bins.forEach((n, i) => {
      const h = n === 0 ? 0 : Math.max(1, Math.round((n / top) * (H - 4)));
      g.fillRect(Math.floor(i * bar) + 1, H - h, Math.max(1, Math.floor(bar) - 2), h);
    });
  }
  canvas.title = bins.map((n, i) => `${format(lo + ((hi - lo) * i) / HISTOGRAM_BINS)}..: ${n}`).join('\n');
  const figure = document.createElement('figure');
  figure.className = 'plot';
  const caption = document.createElement('figcaption');
  caption.className = 'muted';
  caption.textContent = `histogram: ${format(lo)} .. ${format(hi)}, ${HISTOGRAM_BINS} bins, tallest ${top}${nonFinite ? `, ${nonFinite} not finite` : ''}`;
  figure.append(canvas, caption);
  return figure;
}

function finiteRange(a: ArrayLike<number>, n: number): { lo: number; hi: number } {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = a[i] as number;
    if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  }
  return lo <= hi ? { lo, hi } : { lo: 0, hi: 0 };
}
