#!/usr/bin/env node
// The `spieltisch` command: loads the TypeScript command line through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli.ts');
process.exitCode = await main(process.argv.slice(2));
