// What the in-process probes (bench/*-probe.ts) share.

/** Per-call times in microseconds, measured over batches of `batchSize` calls: the median batch and the 99th percentile. */
export async function perCall(
  fn: () => Promise<unknown> | unknown,
  batches: number,
  batchSize: number,
): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let i = 0; i < batchSize; i++) await fn();
    times.push(((performance.now() - t0) * 1000) / batchSize);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]! };
}
