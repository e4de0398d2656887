#!/usr/bin/env node
// The `matchday` command: runs src/cli.ts from a cached esbuild bundle of the TypeScript sources,
// rebuilt when a source changes, or through tsx when no bundle can be written (bin/bundle.mjs).
import { loadEntry } from './bundle.mjs';

const { main } = await loadEntry();
await main(process.argv.slice(2));
