// Preloaded (--import) into a traced `mailroom agent` by bench/trace-delivery.mjs: timing marks of its HTTP path
// (the global fetch called; undici diagnostics channels), in the format of src/trace-marks.ts.
import dc from 'node:diagnostics_channel';
const mark = (n) => process.stderr.write(`mailroom-mark ${n} ${(performance.timeOrigin + performance.now()).toFixed(3)}\n`);
const f = globalThis.fetch;
globalThis.fetch = function (...a) { mark('fetch-call'); return f.apply(this, a); };
dc.subscribe('undici:request:create', () => mark('undici-create'));
dc.subscribe('undici:client:beforeConnect', () => mark('undici-beforeConnect'));
dc.subscribe('undici:client:connected', () => mark('undici-connected'));
dc.subscribe('undici:client:sendHeaders', () => mark('undici-sendHeaders'));
dc.subscribe('undici:request:bodySent', () => mark('undici-bodySent'));
