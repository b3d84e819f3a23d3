import type { Channel } from '../../contract';

/**
 * Which CLI command reaches each channel of the contract, or why none does. Typed over every
 * channel, so a channel added to the contract does not compile until it is placed here; the CLI
 * tests check that each command named exists with the options named, and docs/cli.md shows this
 * table. Exemptions are few on purpose: only what a terminal has its own way of doing.
 */
export type ChannelReach = { command: string } | { exempt: string };

const UPLOAD = 'browser mode uploads bytes; the CLI names the file on disk instead';
const CTRL_C = 'the call runs in the CLI process itself: Ctrl-C cancels it';
const KEYS = 'the CLI takes keys from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY), never stores them';

export const CHANNEL_COMMANDS: { readonly [C in Channel]: ChannelReach } = {
  'ideas:list': { command: 'list' },
  'ideas:get': { command: 'show SLUG' },
  'ideas:search': { command: 'search "QUERY"' },
  'ideas:capture': { command: 'capture --title T' },
  'ideas:captureFile': { command: 'capture --file FILE' },
  'ideas:captureUpload': { exempt: UPLOAD },
  'ideas:attach': { command: 'attach SLUG FILE' },
  'ideas:attachUpload': { exempt: UPLOAD },
  'ideas:setStage': { command: 'stage SLUG STAGE' },
  'workspace:sync': { command: 'sync' },
  'workspace:errors': { command: 'errors' },
  'taxonomy:get': { command: 'taxonomy' },
  'personas:list': { command: 'personas' },
  'debates:list': { command: 'debates list' },
  'debates:get': { command: 'debates show ID' },
  'debates:events': { command: 'debates events ID --from N' },
  'debates:estimate': { command: 'debate --estimate' },
  'debates:start': { command: 'debate --config FILE' },
  'debates:pause': { command: 'debates pause ID' },
  'debates:resume': { command: 'debates resume ID' },
  'debates:cancel': { command: 'debates stop ID' },
  'debates:progress': { command: 'debates progress ID' },
  'debates:cruxMap': { command: 'debates map ID' },
  'debates:course': { command: 'debates course ID' },
  'debates:saveCruxLayout': { exempt: 'node positions dragged on the crux map: a drawing, nothing to type' },
  'ledger:list': { command: 'ledger list' },
  'cruxes:graph': { command: 'cruxes graph' },
  'ledger:calibration': { command: 'ledger calibration' },
  'ledger:resolveFalsifier': { command: 'ledger resolve KEY --outcome OUTCOME --on DAY --note TEXT' },
  'transcripts:list': { command: 'transcripts list' },
  'transcripts:get': { command: 'transcripts show KIND ID' },
  'transcripts:search': {
    command: 'transcripts search WORDS --agent A --move M --idea SLUG --kind K --from DAY --to DAY',
  },
  'evaluations:list': { command: 'evaluations list --idea SLUG --status S' },
  'evaluations:get': { command: 'evaluations show ID' },
  'evaluations:estimate': { command: 'evaluations estimate SLUG --config FILE' },
  'evaluations:start': { command: 'evaluate SLUG --config FILE' },
  'evaluations:cancel': { command: 'evaluations stop ID' },
  'evaluations:resume': { command: 'evaluations resume ID' },
  'evaluations:approve': { command: 'evaluations approve ID' },
  'evaluations:dispute': { command: 'dispute SLUG --criterion ID --reason TEXT' },
  'evaluations:leaderboard': { command: 'leaderboard' },
  'evaluations:personaRatings': { command: 'leaderboard --personas' },
  'evaluations:matrix': { command: 'evaluations matrix' },
  'runs:list': { command: 'runs list --protocol P --status S' },
  'runs:pause': { command: 'runs pause ID' },
  'runs:resume': { command: 'runs resume ID' },
  'runs:cancel': { command: 'runs stop ID' },
  'runs:start': { command: 'run PROTOCOL --idea SLUG --topic T --setup FILE --provider P --seed N' },
  'settings:get': { command: 'settings show' },
  'settings:set': { command: 'settings set --config FILE' },
  'settings:setKey': { exempt: KEYS },
  'settings:clearKey': { exempt: KEYS },
  'export:document': { command: 'export SLUG --debate ID --evaluation ID --format F --out FILE' },
  'export:cancel': { exempt: CTRL_C },
  'ideas:file': { command: 'file SLUG PATH' },
  'ideas:relationships': { command: 'relationships' },
  'ideas:classify': { command: 'classify SLUG --provider P' },
  'ideas:questions': { command: 'questions SLUG' },
  'ideas:develop': { command: 'develop SLUG' },
  'ideas:developCancel': { exempt: CTRL_C },
  'ideas:answer': { command: 'develop SLUG --answer N' },
  'ideas:import': { command: 'import DIR' },
  'ideas:compare': { command: 'compare SLUGS' },
  'arenas:estimate': {
    command: 'arena --estimate --idea SLUG --topic T --ideas a,b,c --agents a,b,c --judge ID --provider P',
  },
  'arenas:start': {
    command:
      'arena --idea SLUG --topic T --ideas a,b,c --agents a,b,c --judge ID --trickster --similarity M --provider P --seed N --budget USD',
  },
  'arenas:get': { command: 'runs show ID' },
  'arenas:tournament': { command: 'arena --tournament ID' },
  'arenas:ratings': { command: 'ratings' },
  'council:estimate': { command: 'council run --task T --estimate --provider P' },
  'council:run': { command: 'council run --task T --idea SLUG --provider P --seed N' },
  'council:list': { command: 'council list' },
  'council:get': { command: 'council task ID' },
  'council:approvals': { command: 'council inbox' },
  'council:preview': { command: 'council preview ID' },
  'council:approve': { command: 'council approve ID --note N' },
  'council:reject': { command: 'council reject ID --note N' },
  'council:revert': { command: 'council revert ID --note N' },
  'council:resume': { command: 'council resume TASK' },
  'council:weights': { command: 'council weights' },
  'council:figures': { command: 'council figures' },
  'memory:list': { command: 'memory search QUERY --idea SLUG --limit N' },
};
