/**
 * A provider-neutral conversation shared by the adapter tests: a system prompt, two wrapped teammate
 * messages (as the runtime delivers them, with escaped attributes and raw JSON body), an assistant
 * turn with text and two tool calls, and a user turn mixing their results with a newly delivered message.
 */
import type { ChatMessage, ModelRequest, ToolSpec } from '../../../../src/runtime/models/types.js';

export const SYSTEM = 'You are "alice" in team demo.\nRoster: team-lead, alice, bob.\nTask board: #1 pending.';

export const WRAPPED = [
  '<teammate-message teammate_id="team-lead" color="blue" summary="Start &quot;parse&quot; task">',
  'Please take task #1 & report back. Use <b>care</b>.',
  '</teammate-message>',
  '',
  '<teammate-message teammate_id="bob">',
  '{"type":"shutdown_request","requestId":"shutdown-1@bob","reason":"done"}',
  '</teammate-message>',
].join('\n');

export const LATE = '<teammate-message teammate_id="bob" color="green">\nI finished #2 too.\n</teammate-message>';

export const TOOLS: ToolSpec[] = [
  {
    name: 'TaskUpdate',
    description: 'Update a task.',
    inputSchema: { type: 'object', properties: { taskId: { type: 'string' }, status: { enum: ['in_progress', 'completed'] } }, required: ['taskId'] },
  },
  { name: 'TaskList', description: 'List tasks.', inputSchema: { type: 'object', properties: {} } },
];

export const MESSAGES: ChatMessage[] = [
  { role: 'user', content: [{ type: 'text', text: WRAPPED }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Claiming #1.' },
      { type: 'tool_use', id: 'call_A', name: 'TaskUpdate', input: { taskId: '1', status: 'in_progress' } },
      { type: 'tool_use', id: 'call_B', name: 'TaskList', input: {} },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'text', text: LATE },
      { type: 'tool_result', toolUseId: 'call_A', content: '{"id":"1","status":"in_progress"}' },
      { type: 'tool_result', toolUseId: 'call_B', content: 'TASK_NOT_FOUND', isError: true },
    ],
  },
];

/** A request over {@link MESSAGES} with a fresh signal (or the one given). */
export function request(signal: AbortSignal = new AbortController().signal, messages: ChatMessage[] = MESSAGES): ModelRequest {
  return { system: SYSTEM, messages, tools: TOOLS, signal };
}
