/** A small seeded PRNG (mulberry32): the same seed gives the same sandbox data on every machine. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** `count` distinct items (fewer if there are not that many). */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    const out: T[] = [];
    while (out.length < count && copy.length > 0) out.push(copy.splice(Math.floor(this.next() * copy.length), 1)[0]!);
    return out;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A hex string of `length` characters (commit hashes, ids). */
  hex(length: number): string {
    let s = "";
    while (s.length < length)
      s += Math.floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, "0");
    return s.slice(0, length);
  }
}

/** Seeded data is dated relative to this instant, so it is the same on every run. */
export const SEED_EPOCH = Date.parse("2026-01-05T09:00:00.000Z");

export const seedDate = (rng: Rng, maxDaysBack: number): Date => new Date(SEED_EPOCH - rng.int(0, maxDaysBack * 24 * 60) * 60_000);
