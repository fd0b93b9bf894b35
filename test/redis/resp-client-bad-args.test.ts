/**
 * The RESP client against a real redis-server: a command whose arguments cannot be encoded (a
 * JavaScript caller's number where a string belongs) is refused alone, and the connection goes on
 * serving. Session 14 (break test): the reply slot was queued before encoding threw, so every later
 * reply went to the call before it and each call after timed out.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RespClient } from '../../src/store/redis/resp-client.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let server: RedisServer;
let client: RespClient;
beforeAll(async () => {
  server = await startRedis();
  client = new RespClient({ url: server.url });
  await client.connect();
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

it('refuses a command it cannot encode, and the next commands get their own replies', async () => {
  await expect(client.sendCommand(['SET', 'k', 5 as unknown as string])).rejects.toThrow();
  expect(await client.sendCommand(['SET', 'k', 'v'])).toBe('OK');
  expect(await client.sendCommand(['GET', 'k'])).toBe('v');
  expect(await client.sendCommand(['ECHO', 'after'])).toBe('after');
});
