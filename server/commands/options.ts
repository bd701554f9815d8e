// Reading `--options JSON` for a game's rules, and `--people` for simulated players: a usage error, never a crash, when it is not right.
import { UsageError } from '../cli.ts';
import { CALM_PEOPLE, harshPeople, type PeopleModel } from '../simulate/people.ts';

/** The JSON of `--options` as an object (empty when not given). */
export function optionsJson(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch {
    throw new UsageError(`--options is not JSON: ${json}`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new UsageError(`--options must be a JSON object such as {"seedsPerPit":3}`);
  return input as Record<string, unknown>;
}

/** Knobs of the people model that are counts or times, not chances per move. */
const PEOPLE_AMOUNTS: readonly string[] = ['quickRun', 'pauseMs'];

/**
 * `--people` of `simulate`: `calm` (the first model), `harsh:1` to `harsh:3`, or a JSON object of
 * knobs (people.ts) set over the calm model, or over a level given as `"harsh": 2`. A usage
 * error, never a crash, when it is not right; undefined when not given (the calm model, as ever).
 */
export function peopleOption(value: string | undefined): Partial<PeopleModel> | undefined {
  if (value === undefined) return undefined;
  if (value === 'calm') return CALM_PEOPLE;
  const level = /^harsh:([123])$/.exec(value);
  if (level) return harshPeople(Number(level[1]) as 1 | 2 | 3);
  let input: unknown;
  try {
    input = JSON.parse(value);
  } catch {
    throw new UsageError(`--people must be calm, harsh:1, harsh:2, harsh:3 or a JSON object of knobs such as {"quickStart":0.5}, not ${value}`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new UsageError(`--people must be a JSON object of knobs such as {"quickStart":0.5}`);
  const knobs: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  let base: PeopleModel = CALM_PEOPLE;
  if ('harsh' in knobs) {
    const h = knobs.harsh;
    if (h !== 1 && h !== 2 && h !== 3) throw new UsageError(`--people: "harsh" must be 1, 2 or 3 (got ${JSON.stringify(h)})`);
    base = harshPeople(h);
    delete knobs.harsh;
  }
  const out: Record<string, unknown> = { ...base };
  for (const [key, x] of Object.entries(knobs)) {
    if (!(key in CALM_PEOPLE)) throw new UsageError(`--people: no knob "${key}"; the knobs are ${Object.keys(CALM_PEOPLE).join(', ')}`);
    const calm = CALM_PEOPLE[key as keyof PeopleModel];
    if (Array.isArray(calm)) {
      if (!Array.isArray(x) || x.length !== 2 || !x.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0) || x[0] > x[1]) {
        throw new UsageError(`--people: "${key}" must be [least, most], two numbers from 0 up (got ${JSON.stringify(x)})`);
      }
    } else if (PEOPLE_AMOUNTS.includes(key)) {
      if (typeof x !== 'number' || !Number.isFinite(x) || x < 0 || (key === 'quickRun' && (!Number.isInteger(x) || x < 1))) {
        throw new UsageError(`--people: "${key}" must be ${key === 'quickRun' ? 'a whole number from 1 up' : 'a number of ms from 0 up'} (got ${JSON.stringify(x)})`);
      }
    } else if (typeof x !== 'number' || !(x >= 0 && x <= 1)) {
      throw new UsageError(`--people: "${key}" is a chance, a number from 0 to 1 (got ${JSON.stringify(x)})`);
    }
    out[key] = x;
  }
  return out as unknown as PeopleModel;
}
