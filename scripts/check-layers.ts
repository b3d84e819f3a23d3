import { checkLayers } from './layers';

const violations = checkLayers(process.cwd());
for (const v of violations) process.stderr.write(`${v.file}:${v.line}: imports "${v.specifier}": ${v.rule}\n`);
if (violations.length > 0) {
  process.stderr.write(`layer check: ${violations.length} forbidden import${violations.length === 1 ? '' : 's'}\n`);
  process.exitCode = 1;
} else process.stdout.write('layer check: every import respects the layers\n');
