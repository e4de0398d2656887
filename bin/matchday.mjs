#!/usr/bin/env node
// The `matchday` command: runs the TypeScript sources directly through tsx, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
await main(process.argv.slice(2));
