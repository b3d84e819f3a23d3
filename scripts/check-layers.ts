import { checkImportCycles } from './import-cycles';
import { checkLayers, checkSqlPlacement } from './layers';

const violations = checkLayers(process.cwd());
for (const v of violations) process.stderr.write(`${v.file}:${v.line}: imports "${v.specifier}": ${v.rule}\n`);
const sql = checkSqlPlacement(process.cwd());
for (const v of sql) process.stderr.write(`${v.file}:${v.line}: "${v.specifier}": ${v.rule}\n`);
if (violations.length > 0) {
  process.stderr.write(`layer check: ${violations.length} forbidden import${violations.length === 1 ? '' : 's'}\n`);
}
if (sql.length > 0) {
  process.stderr.write(
    `layer check: SQL outside core/node/sqlite in ${new Set(sql.map((v) => v.file)).size} file(s)\n`,
  );
}
if (violations.length + sql.length > 0) process.exitCode = 1;
else process.stdout.write('layer check: every import respects the layers, and SQL stays in core/node/sqlite\n');

// A run-time import cycle in core/ (type-only imports aside) makes load order matter; see import-cycles.ts.
const cycles = checkImportCycles(process.cwd());
for (const cycle of cycles) process.stderr.write(`import cycle: ${cycle.join(' → ')}\n`);
if (cycles.length > 0) {
  process.stderr.write(
    `layer check: ${cycles.length} run-time import cycle${cycles.length === 1 ? '' : 's'} in core/\n`,
  );
  process.exitCode = 1;
} else process.stdout.write('layer check: no run-time import cycle in core/\n');
