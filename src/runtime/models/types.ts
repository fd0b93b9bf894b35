/**
 * The model interface every LLM adapter implements (anthropic, openai, scripted). A provider-neutral
 * conversation: the runtime builds a {@link ModelRequest}, the adapter maps it to its wire format and
 * maps the reply back to a {@link ModelResponse}.
 */

/** JSON Schema of a tool's input (an object schema). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** A tool the model may call. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** Plain text. */
export interface TextBlock {
  type: 'text';
  text: string;
}

/** A tool call made by the model. `id` is the provider's call id, echoed in the result. */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** The result of a tool call, sent back in the next user turn. */
export interface ToolResultBlock {
  type: 'tool_result';
  toolUseId: string;
  content: string;
  isError?: boolean;
}

/** Any block of a conversation turn. */
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

/** One turn of the conversation. */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

/** Everything a model call needs. */
export interface ModelRequest {
  /** System prompt (team context, rebuilt every turn). */
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** Aborts the call (teammate shutdown). */
  signal: AbortSignal;
  /** Upper bound on output tokens (default chosen by the adapter). */
  maxTokens?: number;
  /**
   * Who the request is for: the teammate's team, member name, lead and working directory, passed
   * explicitly (domain data; `currentTeammate()` only answers identity questions deep in a stack).
   */
  teammate?: { team: string; name: string; lead: string; cwd: string };
}

/** Why the model stopped. `tool_use` means the runtime must run the calls and call again. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'other';

/** A model's reply. */
export interface ModelResponse {
  content: Array<TextBlock | ToolUseBlock>;
  stopReason: StopReason;
  usage?: { inputTokens: number; outputTokens: number };
}

/** A chat model with tool use. Adapters throw MailroomError MODEL_ERROR on API failures. */
export interface Model {
  /** `kind:name`, e.g. `anthropic:claude-sonnet-4-5`. */
  readonly id: string;
  call(request: ModelRequest): Promise<ModelResponse>;
}
