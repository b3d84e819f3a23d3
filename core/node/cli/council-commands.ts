import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { councilRecorder, replayCouncil } from '../../council';
import { ScriptError } from '../../text/script-lines';
import { nodeCouncilFiles } from '../council/council-files';
import { UserError } from '../workspace/workspace';
import { jsonOption, openWorkspace, workspaceOption } from './common';
import { ScriptFileError } from './crux-commands';
import type { Command } from './workspace-commands';

/** `council --replay FILE --workspace DIR --json`: a council task replayed against a real workspace. */
export const councilCommands: Command[] = [
  {
    spec: {
      name: 'council',
      summary:
        'The council of executor, verifier and integrator acting on the workspace (--replay FILE replays a script).',
      usage: 'council --replay FILE --workspace DIR [--json]',
      positionals: [],
      options: {
        replay: {
          type: 'string',
          value: 'FILE',
          description: 'a council replay script (JSONL): its actions really run on the workspace',
        },
        workspace: workspaceOption,
        json: jsonOption,
      },
    },
    run(args, io) {
      const replay = args.options.replay as string | undefined;
      if (!replay) throw new UserError('council: give --replay FILE (see --help)');
      const file = resolve(replay);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        throw new UserError(`cannot read ${file}`);
      }
      const ws = openWorkspace(args);
      try {
        const files = nodeCouncilFiles(ws.root, {
          stages: [...ws.taxonomy.stageIds],
          search: (query) => ws.search(query).map((hit) => hit.slug),
        });
        const taskId = files.newId();
        let out: ReturnType<typeof replayCouncil>;
        try {
          out = replayCouncil(text, files, { taskId, observer: councilRecorder(files, taskId) });
        } catch (error) {
          if (error instanceof ScriptError) throw new ScriptFileError(`${file}: ${error.message}`);
          throw error;
        } finally {
          // What the actions wrote goes into the index like any edit of the folder.
          ws.sync();
        }
        io.out(JSON.stringify(out.result, null, 2));
      } finally {
        ws.close();
      }
      return 0;
    },
  },
];
