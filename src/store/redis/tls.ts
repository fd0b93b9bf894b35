/**
 * TLS for `rediss://` stores: the client certificate, its key and the CA that signed the server's
 * certificate are files named by the environment — `MAILROOM_TLS_CA`, `MAILROOM_TLS_CERT`,
 * `MAILROOM_TLS_KEY` (PEM) — so no secret or path is ever part of a store URL that gets printed
 * or shared. Each is optional: without a CA the system's roots verify the server; without a
 * certificate the client presents none. Verification is never turned off.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { MailroomError } from '../../errors.js';

/** The environment variables read, by the TLS option each fills. */
export const TLS_ENV = { ca: 'MAILROOM_TLS_CA', cert: 'MAILROOM_TLS_CERT', key: 'MAILROOM_TLS_KEY' } as const;

/**
 * The TLS socket options of `url`: `undefined` for `redis://`; for `rediss://`, `tls: true` plus
 * the CA, certificate and key files the environment names (read now).
 * @throws INVALID_ARGUMENT naming a variable whose file cannot be read, or a certificate without its key
 */
export function tlsOptionsOf(url: string, env: NodeJS.ProcessEnv = process.env): (ConnectionOptions & { tls: true }) | undefined {
  if (!url.startsWith('rediss:')) return undefined;
  const out: ConnectionOptions & { tls: true } = { tls: true };
  for (const [option, name] of Object.entries(TLS_ENV) as [keyof typeof TLS_ENV, string][]) {
    const path = env[name];
    if (path === undefined || path === '') continue;
    try {
      out[option] = readFileSync(path);
    } catch (err) {
      throw new MailroomError('INVALID_ARGUMENT', `$${name} names ${JSON.stringify(path)}, which cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}): point it at a PEM file.`, { details: { variable: name, path } });
    }
  }
  if ((out.cert === undefined) !== (out.key === undefined)) {
    throw new MailroomError('INVALID_ARGUMENT', `A client certificate needs its key: set both $${TLS_ENV.cert} and $${TLS_ENV.key} (PEM files), or neither.`);
  }
  return out;
}

/** Why a TLS connection failed, in words that say what to do; undefined when `err` is no TLS failure. */
export function tlsFailure(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (/^ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST|RECORD_LAYER_FAILURE)/.test(code) || /wrong version number|packet length too long/i.test(err.message)) {
    return `TLS handshake failed (${code || err.message}): the server on that port does not speak TLS — use redis:// for it, or the port of its tls-port`;
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME/.test(code) || /certificate/i.test(err.message)) {
    return `the server's TLS certificate was not accepted (${code}): give the CA that signed it in $${TLS_ENV.ca}, and connect by a name or address the certificate lists`;
  }
  if (/^ERR_SSL_/.test(code) || /alert|handshake/i.test(err.message)) {
    return `TLS handshake failed (${code || err.message}): if the server requires a client certificate, set $${TLS_ENV.cert} and $${TLS_ENV.key}`;
  }
  return undefined;
}

/** Why a TLS connection timed out: most often a plain server, which waits for a command and never answers the handshake. */
export const TLS_TIMEOUT_HINT = 'no TLS handshake before the connect timeout: the server on that port may not speak TLS — use redis:// for it, or the port of its tls-port';
