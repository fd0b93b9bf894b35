/**
 * The HTTP core shared by the fake model servers (fake-anthropic-server.ts, fake-openai-server.ts):
 * a real node:http server on 127.0.0.1 (random port) that accepts JSON POSTs on one route, records
 * every request, and answers each from a FIFO queue of scripted replies rendered to the wire format by
 * the provider-specific module. Use the provider modules; this one is their plumbing.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. `body` is the parsed JSON body. */
export interface RecordedRequest<Body = Record<string, unknown>> {
  method: string;
  /** Path and query, e.g. `/v1/messages`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Body;
}

/** An HTTP answer: status, JSON body, extra headers. `'hang'` keeps the request open until the client gives up (abort tests). */
export type WireAnswer = { status: number; body: unknown; headers?: Record<string, string> } | 'hang';

/**
 * A scripted reply: a value, or a function of the request (may be async, e.g. to wait for a test's
 * go-ahead or to answer from the request body). `index` is the 0-based request number.
 */
export type Scripted<Reply, Body> = Reply | ((request: RecordedRequest<Body>, index: number) => Reply | Promise<Reply>);

/** Replies shared by both fake servers: an API error, a raw answer, or no answer at all. */
export type FakeControlReply =
  /** An API error in the provider's format. The SDK retries it only when `retry` is true (after 1 ms, via `retry-after-ms: 1`). */
  | { type: 'error'; status: number; message: string; errorType?: string; retry?: boolean }
  /** Any status, body and headers, sent as given. */
  | { type: 'raw'; status: number; body: unknown; headers?: Record<string, string> }
  /** Never answers: the request stays open until the client aborts or the server closes. */
  | { type: 'hang' };

/** A running fake server. */
export interface FakeLlmServer<Reply, Body> {
  /** `http://127.0.0.1:<port>` plus the provider's base path, ready for the SDK's `baseURL`. */
  readonly baseURL: string;
  /** Every request received, in arrival order (also unroutable and unscripted ones). */
  readonly requests: ReadonlyArray<RecordedRequest<Body>>;
  /** Appends replies to the queue; each request takes the next one. */
  enqueue(...replies: Array<Scripted<Reply, Body>>): void;
  /** Replies not yet used. */
  readonly pendingReplies: number;
  /** Resolves once at least `count` requests have arrived (no timeout: the test's own timeout applies). */
  waitForRequests(count: number): Promise<ReadonlyArray<RecordedRequest<Body>>>;
  /** Stops the server and drops open (e.g. hanging) connections. */
  close(): Promise<void>;
}

/** What a provider module supplies. */
export interface FakeLlmServerSpec<Reply> {
  /** The one route served, e.g. `/v1/chat/completions`. */
  route: string;
  /** Path prefix the SDK's baseURL must include, e.g. `/v1` for OpenAI, `` for Anthropic. */
  basePath: string;
  /** Renders a reply to the wire. */
  render(reply: Reply, index: number): WireAnswer;
  /** The error answer for a request that has no route or no scripted reply. */
  failure(status: number, message: string): WireAnswer;
}

/** How long the server keeps an idle client connection open (ms); see {@link startFakeLlmServer}. */
const KEEP_ALIVE_MS = 600_000;

/** Starts a fake server on 127.0.0.1 with a random free port. */
export async function startFakeLlmServer<Reply, Body>(spec: FakeLlmServerSpec<Reply>): Promise<FakeLlmServer<Reply, Body>> {
  const requests: Array<RecordedRequest<Body>> = [];
  const queue: Array<Scripted<Reply, Body>> = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const recorded: RecordedRequest<Body> = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: await readJson(req) as Body };
    const index = requests.push(recorded) - 1;
    wakeWaiters(waiters, requests.length);
    if (req.method !== 'POST' || recorded.path.split('?')[0] !== spec.route) {
      return send(res, spec.failure(404, `fake server: no route ${req.method} ${recorded.path}; only POST ${spec.route}`));
    }
    const next = queue.shift();
    if (next === undefined) return send(res, spec.failure(500, `fake server: no scripted reply left for request #${index}`));
    const reply = typeof next === 'function' ? await (next as (r: RecordedRequest<Body>, i: number) => Reply | Promise<Reply>)(recorded, index) : next;
    send(res, spec.render(reply, index));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, spec.failure(500, `fake server: ${String(err)}`)));
  });
  // A client's connection stays open between its requests however slowly the test goes: Node's
  // default (5 s, advertised as `Keep-Alive: timeout=5`, which fetch/undici keeps to ~4 s) ends it
  // when a loaded machine spaces two requests out, and the next request then waits for a new
  // connection — not written by the time a test freezes the client right after making it
  // (MAILROOM_TEST_FREEZE=looked-take), so the server never sees it. 10 min: undici's longest.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}${spec.basePath}`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    get pendingReplies() {
      return queue.length;
    },
    waitForRequests: (count) =>
      new Promise((resolve) => {
        if (requests.length >= count) return resolve(requests);
        waiters.push({ count, resolve: () => resolve(requests) });
      }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function wakeWaiters(waiters: Array<{ count: number; resolve: () => void }>, received: number): void {
  const ready = waiters.filter((w) => received >= w.count);
  for (const w of ready) {
    waiters.splice(waiters.indexOf(w), 1);
    w.resolve();
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { unparsableBody: text };
  }
}

function send(res: ServerResponse, answer: WireAnswer): void {
  if (answer === 'hang') return;
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  res.end(body);
}
