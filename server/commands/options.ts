// Reading `--options JSON` for a game's rules: a usage error, never a crash, when it is not right.
import { UsageError } from '../cli.ts';

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
