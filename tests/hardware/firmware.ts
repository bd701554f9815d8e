// Builds a sketch with hardware/build.sh (Debian's arduino-builder and avr-gcc) for the tests, and reads its flash and RAM use.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const VARIANTS = ['kalaha-table', 'square-board', 'square-board-13x13'] as const;
export type Variant = (typeof VARIANTS)[number];

export interface BuiltFirmware {
  readonly variant: Variant;
  readonly hex: string;
  readonly flashBytes: number;
  readonly ramBytes: number;
  /** The line build.sh printed. */
  readonly summary: string;
}

/**
 * Compiles `variant` for the Uno into hardware/build/ (git ignores it; arduino-builder recompiles
 * only what changed, so the second run of a test file costs about a second). A missing toolchain
 * is an error, never a skip: these tests are what says the sketch a user flashes works.
 */
export async function buildFirmware(variant: Variant): Promise<BuiltFirmware> {
  let stdout: string;
  try {
    ({ stdout } = await run('bash', [join(root, 'hardware', 'build.sh'), '--board', 'uno', variant], { cwd: root, maxBuffer: 16 << 20 }));
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`hardware/build.sh ${variant} failed: ${e.stderr?.trim() || e.message}`);
  }
  const summary = stdout.trim().split('\n').at(-1) ?? '';
  const m = /flash\s+(\d+) of .*RAM\s+(\d+) of .*\s(\S+\.hex)$/.exec(summary);
  if (!m) throw new Error(`cannot read build.sh's summary: ${summary}`);
  return { variant, hex: readFileSync(m[3], 'utf8'), flashBytes: Number(m[1]), ramBytes: Number(m[2]), summary };
}

/**
 * Builds once for a test file and hands the firmware to each test. A failed build fails every
 * test that needs it, with the build's message, so a missing toolchain shows as failures in the
 * counts and never as tests quietly skipped.
 */
export function firmwareFor(variant: Variant): { build(): Promise<void>; get(): BuiltFirmware; summary(): string } {
  let built: BuiltFirmware | Error | null = null;
  return {
    async build() {
      built = await buildFirmware(variant).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    },
    get() {
      if (built === null) throw new Error(`${variant} was not built`);
      if (built instanceof Error) throw built;
      return built;
    },
    summary() {
      return built === null || built instanceof Error ? `${variant}: not built` : built.summary;
    },
  };
}

/** One line on how fast the emulated Uno ran in a test file (printed, never asserted: a test does not time itself). */
export function speedReport(name: string, runs: readonly { emulatedMs: number; realMs: number; cpuMs: number; asleep: number }[]): string {
  const emulated = runs.reduce((s, r) => s + r.emulatedMs, 0);
  const cpu = runs.reduce((s, r) => s + r.cpuMs, 0);
  const wall = runs.reduce((s, r) => s + r.realMs, 0);
  const asleep = runs.reduce((s, r) => s + r.asleep * r.emulatedMs, 0) / Math.max(emulated, 1);
  const speed = emulated / Math.max(cpu, 1);
  return (
    `${name}: emulated ${(emulated / 1000).toFixed(1)} s of a 16 MHz Uno in ${(cpu / 1000).toFixed(1)} s of CPU ` +
    `(${(speed * 16).toFixed(0)} MHz effective, ${speed.toFixed(1)}x real time; ${(wall / 1000).toFixed(1)} s wall clock); ` +
    `the sketch slept ${(asleep * 100).toFixed(0)}% of its time`
  );
}
