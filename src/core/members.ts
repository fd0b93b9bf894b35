/**
 * Roster helpers for the layers above core (runtime, MCP, CLI): the rules themselves live in
 * src/domain/roster.ts, shared with every store backend.
 */
export { leadOf, leadName, findMember, requireMember, isTeammate } from '../domain/roster.js';
