/**
 * Schemas built on first use (issue 24, start-up by verb). Building a zod v4 schema is not free
 * (each one sets up its internals, checks and JIT-able parsers), and every module-level schema of
 * src/protocol and the store used to be built when the CLI started, whatever the verb: a `team
 * send` built the task, lease, settings, hook and structured-message schemas it never reads.
 *
 * `lazySchema(() => z.object(…))` returns a stand-in with the schema's own type; the first use of
 * any of its properties (`parse`, `safeParse`, `shape`, `_zod` when another schema embeds it …)
 * builds the real schema once, and every later access goes to that one object. It behaves as the
 * schema for `instanceof`, `in`, property reads and writes and key listing (a Proxy forwarding
 * to it); only identity differs (`lazy !== built`), which nothing in mailroom compares.
 */

/** A stand-in for the value `build()` returns, built on first use (see the module comment). */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(real(), key),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => Reflect.has(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      // The stand-in's own target has no such property: a Proxy may report it only as configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(real(), key),
  });
}
