// Reading `--options JSON` for a game's rules: a usage error, never a crash, when it is not right.
import { parseOptions, type KalahaOptions } from '../rules/kalaha.ts';
import { parseOptions as parseMalawiOptions, type MalawiOptions } from '../rules/malawi.ts';
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

export function kalahaRules(json: string | undefined): KalahaOptions {
  const rules = parseOptions(optionsJson(json));
  if (!rules.ok) throw new UsageError(`--options: ${rules.error.message}`);
  return rules.value;
}

/** Malawi's options; a board's size may come from its HELLO line when `--options` leaves it out. */
export function malawiRules(json: string | undefined, boardSize?: number): MalawiOptions {
  const input = optionsJson(json);
  const rules = parseMalawiOptions(boardSize !== undefined && input.size === undefined ? { ...input, size: boardSize } : input);
  if (!rules.ok) throw new UsageError(`--options: ${rules.error.message}`);
  return rules.value;
}
