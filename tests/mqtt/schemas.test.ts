// The schemas the broadcast service reads MQTT payloads with take everything a real table says: every sync and
// update of simulated games of all four games, exactly as a table publishes them.
import { describe, expect, test } from 'vitest';
import { tables } from '../../server/tables/index.ts';
import { openGameLog } from '../../server/store/index.ts';
import { syncSchema, updateSchema } from '../../server/mqtt/index.ts';
import type { ServerMessage } from '../../server/http/messages.ts';
import { GAME_NAMES } from '../../server/rules/types.ts';
import { until } from './harness.ts';

describe('the payload schemas and real tables', () => {
  test.each(GAME_NAMES)('every sync and update of a simulated %s game passes', async (game) => {
    const rules = tables[game]!.withRules({});
    const sim = await rules.simulate({ seed: 9, simSpeed: 200, sense: 'count' });
    const log = openGameLog(':memory:');
    const session = rules.session({ boardId: `schema-${game}`, source: 'simulated', log }, sim.link);
    session.setBoard({ connected: true, calibrated: true });
    const seen: ServerMessage[] = [session.sync()];
    session.subscribe((message) => {
      if (message.type === 'update') seen.push(message, session.sync());
    });
    try {
      await until(`the ${game} table has made 40 updates`, () => seen.length >= 81);
    } finally {
      await sim.close();
      log.close();
    }
    for (const message of seen) {
      const parsed = (message.type === 'sync' ? syncSchema : updateSchema).safeParse(message);
      expect(parsed.error?.issues ?? [], `${game} ${message.type} ${JSON.stringify(message).slice(0, 300)}`).toEqual([]);
      // Nothing a table says is dropped on the way either.
      expect(parsed.data).toEqual(JSON.parse(JSON.stringify(message)));
    }
  }, 60_000);
});
