import { runCli } from '../../../core/node/cli/main';
import { protocols } from '../../../core/protocols';
import { tallyEntry } from './protocol';

// The real CLI with the tally protocol registered: the one line a new protocol adds, made here
// because tally lives only in the tests.
protocols.register(tallyEntry);
process.exitCode = await runCli(process.argv.slice(2));
