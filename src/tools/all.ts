/**
 * The default catalogue: every tool mailroom offers, on the runtime and over MCP. Order is the
 * order surfaces list them in.
 */
import { Catalogue } from './catalogue.js';
import { CATALOGUE_RULES } from './catalogue-rules.js';
import type { ToolEntry } from './entry.js';
import { askTool, replyTool } from './entries/ask.js';
import { taskClaimTool } from './entries/claim.js';
import { ackTool, readInboxTool, waitForMessageTool } from './entries/inbox.js';
import { broadcastTool, sendMessageTool, shutdownResponseTool } from './entries/messages.js';
import { runTaskCommandTool } from './entries/run-command.js';
import { taskCreateTool, taskGetTool, taskListTool, taskUpdateTool } from './entries/tasks.js';
import { listMembersTool } from './entries/team.js';
import { approveRequestTool, denyRequestTool, listRequestsTool } from './entries/requests.js';
import { leaseAcquireTool, leaseListTool, leaseReleaseTool } from './entries/leases.js';

/** Every entry of the default catalogue. */
export const ENTRIES: readonly ToolEntry[] = [
  sendMessageTool,
  broadcastTool,
  shutdownResponseTool,
  askTool,
  replyTool,
  readInboxTool,
  waitForMessageTool,
  ackTool,
  listMembersTool,
  taskCreateTool,
  taskGetTool,
  taskListTool,
  taskUpdateTool,
  taskClaimTool,
  runTaskCommandTool,
  listRequestsTool,
  approveRequestTool,
  denyRequestTool,
  leaseAcquireTool,
  leaseReleaseTool,
  leaseListTool,
];

/** The catalogue both surfaces are built from. */
export const CATALOGUE = new Catalogue(ENTRIES, CATALOGUE_RULES);
