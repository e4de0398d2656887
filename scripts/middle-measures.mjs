#!/usr/bin/env node
// The measures of "The middle made plain" for production code (src/, commands/): files over 500
// lines, functions over 80 lines (closures counted on their own and inside their factory), and
// `any` in types. Usage: node scripts/middle-measures.mjs [--list]. Last line: one JSON object.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const list = process.argv.includes('--list');
const files = execFileSync('git', ['ls-files', 'src', 'commands'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f.endsWith('.ts'));
const longFiles = [];
const longFunctions = [];
let anys = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > 500) longFiles.push({ file, lines });
  for (const line of text.split('\n')) {
    const code = line.trim();
    if (code.startsWith('*') || code.startsWith('/*') || code.startsWith('//')) continue;
    anys += (code.match(/: any\b|as any\b|<any>/g) ?? []).length;
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > 80) {
        const parent = node.parent;
        const name =
          node.name?.getText() ??
          (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
            ? parent.name.getText()
            : '(anonymous)');
        longFunctions.push({ at: `${file}:${start + 1}`, name, lines: end - start + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
longFiles.sort((a, b) => b.lines - a.lines);
longFunctions.sort((a, b) => b.lines - a.lines);
if (list) {
  console.log('Files over 500 lines:');
  for (const f of longFiles) console.log(`  ${String(f.lines).padStart(5)}  ${f.file}`);
  console.log('Functions over 80 lines:');
  for (const f of longFunctions) console.log(`  ${String(f.lines).padStart(5)}  ${f.at}  ${f.name}`);
}
console.log(
  JSON.stringify({
    files: files.length,
    files_over_500: longFiles.length,
    functions_over_80: longFunctions.length,
    any_in_types: anys,
  }),
);
