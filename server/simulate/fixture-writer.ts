// Writing a game's sensor-trace fixtures: each trace headed by what it covers, beside its ground truth and the console's answers.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GeneratedTrace } from './trace-common.ts';
import { formatTruthJson } from './truth-json.ts';

/** A fixture: the name of its files, what it covers, and the options its trace is generated with. */
export interface Fixture<Options> {
  readonly name: string;
  readonly about: string;
  readonly options: Options;
}

/** A fixture's trace, its first line saying which fixture it is and what it covers. */
export function fixtureTrace<Options, Truth>(fixture: Fixture<Options>, generate: (options: Options) => GeneratedTrace<Truth>): GeneratedTrace<Truth> {
  const { trace, truth } = generate(fixture.options);
  return { trace: `# fixture ${fixture.name}: ${fixture.about}\n${trace}`, truth };
}

/**
 * Writes `<name>.trace` and `<name>.truth.json` for every fixture, and `<name>.answers` for a game
 * whose referee asks the console (`answersOf`); returns the files written.
 */
export function writeFixtureFiles<Options, Truth extends object>(
  dir: string,
  fixtures: readonly Fixture<Options>[],
  generate: (fixture: Fixture<Options>) => GeneratedTrace<Truth>,
  answersOf?: (truth: Truth) => string,
): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const fixture of fixtures) {
    const { trace, truth } = generate(fixture);
    const files: [string, string][] = [
      [`${fixture.name}.trace`, trace],
      [`${fixture.name}.truth.json`, formatTruthJson(truth)],
    ];
    if (answersOf !== undefined) files.push([`${fixture.name}.answers`, answersOf(truth)]);
    for (const [file, text] of files) {
      const path = join(dir, file);
      writeFileSync(path, text);
      written.push(path);
    }
  }
  return written;
}

/**
 * When the module at `moduleUrl` is the script node was started with: writes its fixtures into the
 * folder named on the command line (`defaultDir` when none is) and lists the files written.
 */
export function runFixtureWriter(moduleUrl: string, defaultDir: string, write: (dir: string) => string[]): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(resolve(process.argv[1])).href) return;
  for (const file of write(process.argv[2] ?? defaultDir)) process.stdout.write(`${file}\n`);
}
