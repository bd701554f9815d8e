// Reading `--options JSON` for a game's rules: a usage error, never a crash, when it is not right.
import { parseOptions, type KalahaOptions } from '../rules/kalaha.ts';
import { UsageError } from '../cli.ts';

export function kalahaRules(json: string | undefined): KalahaOptions {
  let input: unknown = {};
  if (json !== undefined) {
    try {
      input = JSON.parse(json);
    } catch {
      throw new UsageError(`--options is not JSON: ${json}`);
    }
  }
  const rules = parseOptions(input);
  if (!rules.ok) throw new UsageError(`--options: ${rules.error.message}`);
  return rules.value;
}
