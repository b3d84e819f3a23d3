export { type CouncilAction, stakesOf, TOOL_STAKES } from './actions';
export { CouncilInputError } from './errors';
export { executeAction, readJournal, revertExecution } from './execution';
export type { CouncilFiles } from './files-port';
export { describeNeed, need, step } from './lifecycle';
export { councilRecorder, findProposal, saveProposal } from './recorder';
export { type CouncilReplay, proposalFileId, replayCouncil } from './replay';
export { type CouncilResult, councilResult } from './result';
export { type CouncilHeader, type CouncilState, initCouncil } from './state';
