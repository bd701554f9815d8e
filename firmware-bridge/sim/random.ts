// Seeded randomness for the simulators: one seed, named independent streams, deterministic on every platform.

/** A 32-bit string hash (MurmurHash3's mixer) to turn a seed and a stream name into state words. */
function hash32(text: string, salt: number): number {
  let h = (0x9e3779b9 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 13;
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * sfc32: small, fast, and good enough for simulation; chosen over Math.random because a trace
 * must be reproducible from its seed.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareGaussian: number | null = null;

  constructor(readonly seed: number | string) {
    const key = String(seed);
    this.a = hash32(key, 1);
    this.b = hash32(key, 2);
    this.c = hash32(key, 3);
    this.d = hash32(key, 4) | 1;
    // The first outputs of sfc32 still show the seed; discard them.
    for (let i = 0; i < 16; i++) this.next();
  }

  /** An independent stream for one concern (noise, the hand, stone weights), so changing one leaves the others alone. */
  fork(name: string): Random {
    return new Random(`${String(this.seed)}/${name}`);
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }

  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }

  /** Standard normal (Box–Muller, both values used). */
  gaussian(): number {
    if (this.spareGaussian !== null) {
      const g = this.spareGaussian;
      this.spareGaussian = null;
      return g;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareGaussian = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }
}
