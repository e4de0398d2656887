#!/usr/bin/env node
// The measures of "The middle made plain" for production code (src/, commands/): files over 500
// lines, functions over 80 lines (closures counted on their own and inside their factory), `any`
// in types, and exported names no other production module imports (entry points such as
// commands/*.ts's default export and bin-run files are counted too: read the list). Usage: node scripts/middle-measures.mjs [--list]. Last line: one JSON object.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
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
// Exported names no other file imports: production imports, and all imports (tests, benches too).
const exported = new Map(); // file -> Set of names
const importedBy = { production: new Set(), any: new Set() }; // "file#name", "file#*"
const allFiles = execFileSync('git', ['ls-files', 'src', 'commands', 'test', 'bench', 'scripts'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f.endsWith('.ts'));
for (const file of allFiles) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const production = files.includes(file);
  for (const statement of source.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    const isExport = modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (production && isExport) {
      const names = exported.get(file) ?? new Set();
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) names.add('default');
      else if (ts.isVariableStatement(statement))
        for (const d of statement.declarationList.declarations) names.add(d.name.getText());
      else if (statement.name) names.add(statement.name.getText());
      exported.set(file, names);
    }
    const from =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier
        ? statement.moduleSpecifier.text
        : undefined;
    if (!from?.startsWith('.')) continue;
    const target = normalize(join(dirname(file), from));
    const mark = (name) => {
      importedBy.any.add(`${target}#${name}`);
      if (production) importedBy.production.add(`${target}#${name}`);
    };
    const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
    if (clause?.name) mark('default');
    const bindings =
      clause?.namedBindings ?? (ts.isExportDeclaration(statement) ? statement.exportClause : undefined);
    if (!bindings || ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings)) mark('*');
    else for (const e of bindings.elements) mark((e.propertyName ?? e.name).getText());
  }
}
let exportsTotal = 0;
const unusedInProduction = [];
const unusedAnywhere = [];
for (const [file, names] of exported) {
  for (const name of names) {
    exportsTotal++;
    const used = (set) => set.has(`${file}#${name}`) || set.has(`${file}#*`);
    if (!used(importedBy.production)) unusedInProduction.push(`${file}#${name}`);
    if (!used(importedBy.any)) unusedAnywhere.push(`${file}#${name}`);
  }
}
longFiles.sort((a, b) => b.lines - a.lines);
longFunctions.sort((a, b) => b.lines - a.lines);
if (list) {
  console.log('Files over 500 lines:');
  for (const f of longFiles) console.log(`  ${String(f.lines).padStart(5)}  ${f.file}`);
  console.log('Functions over 80 lines:');
  for (const f of longFunctions) console.log(`  ${String(f.lines).padStart(5)}  ${f.at}  ${f.name}`);
  console.log('Exports no file imports (tests and benches included):');
  for (const e of unusedAnywhere) console.log(`  ${e}`);
}
console.log(
  JSON.stringify({
    files: files.length,
    files_over_500: longFiles.length,
    functions_over_80: longFunctions.length,
    any_in_types: anys,
    exports: exportsTotal,
    exports_unused_in_production: unusedInProduction.length,
    exports_unused_anywhere: unusedAnywhere.length,
  }),
);
