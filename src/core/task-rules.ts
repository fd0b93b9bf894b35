/**
 * Task-board rules for the layers above core (runtime, MCP, CLI, TUI): the rules themselves live in
 * src/domain/task-board.ts, shared with every store backend.
 */
export { openBlockers, isInternal, isReady, indexTasks, findCycle, addUnique, assertMetadataDepth, assertTaskId, compareTaskIds } from '../domain/task-board.js';
