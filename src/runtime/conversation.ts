/**
 * A teammate's conversation: the turns sent to the model, plus tool results waiting for the next
 * user turn. Messages are never changed after they were sent (a model may keep the request), and
 * consecutive user content is merged into one user turn (tool results first, as the APIs require).
 */
import type { ChatMessage, ContentBlock, TextBlock, ToolUseBlock } from './models/types.js';

/** The running conversation of one teammate. */
export class Conversation {
  private readonly turns: ChatMessage[] = [];
  private pending: ContentBlock[] = [];

  /** The turns so far (a copy: safe to hand to a model). */
  get messages(): ChatMessage[] {
    return [...this.turns];
  }

  /** Puts earlier turns (a restored transcript) before everything; only into an empty conversation. */
  restore(turns: readonly ChatMessage[]): void {
    if (this.turns.length === 0 && this.pending.length === 0) this.turns.push(...turns);
  }

  /** How many turns are settled: those up to the last assistant turn (a trailing user turn may still grow). */
  get settled(): number {
    for (let i = this.turns.length - 1; i >= 0; i--) if (this.turns[i]!.role === 'assistant') return i + 1;
    return 0;
  }

  /** Queues content for the next user turn (tool results, wrapped messages, notes). */
  queue(...blocks: ContentBlock[]): void {
    this.pending.push(...blocks);
  }

  /** True when something waits to be sent. */
  hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** Turns the queued content into a user turn (merged into a trailing user turn, if any). */
  flush(): void {
    if (this.pending.length === 0) return;
    const last = this.turns[this.turns.length - 1];
    const content = sortToolResultsFirst(this.pending);
    if (last?.role === 'user') this.turns[this.turns.length - 1] = { role: 'user', content: sortToolResultsFirst([...last.content, ...content]) };
    else this.turns.push({ role: 'user', content });
    this.pending = [];
  }

  /**
   * Takes `block` back out of the last user turn (a model call that carried it failed, and it will
   * be delivered again). The turn object is replaced, never changed, so a request that kept the old
   * messages array is unaffected; a turn left empty is dropped.
   */
  withdraw(block: ContentBlock): void {
    const last = this.turns[this.turns.length - 1];
    if (last?.role !== 'user' || !last.content.includes(block)) return;
    const content = last.content.filter((b) => b !== block);
    if (content.length === 0) this.turns.pop();
    else this.turns[this.turns.length - 1] = { role: 'user', content };
  }

  /** Appends the model's reply. */
  addAssistant(content: Array<TextBlock | ToolUseBlock>): void {
    this.turns.push({ role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: '(no output)' }] });
  }
}

function sortToolResultsFirst(blocks: ContentBlock[]): ContentBlock[] {
  return [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')];
}
