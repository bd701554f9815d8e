// Finding games (filters, paging, record length), importing whole games, and one transaction for many writes, on SQLite (the store contract).
import { openGameLog } from '../../server/store/index.ts';
import { queryContract } from './contract.ts';

queryContract(() => openGameLog(':memory:'));
