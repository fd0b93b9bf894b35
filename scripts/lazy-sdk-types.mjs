// The MCP SDK's protocol schemas as stand-ins built on first use, for the CLI bundles
// (scripts/bundle-cli.mjs, plugin lazySdkTypes; docs/decisions.md "The MCP SDK's protocol schemas
// are built on first use"). A build-time transform of the SDK's own file, found with TypeScript's
// parser: the SDK is not patched on disk, and the library build (dist/index.js) is unaffected.
/** The SDK file whose schemas are built on first use in the CLI bundles. */
export const SDK_TYPES = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]types\.js$/;
/**
 * `text` (the SDK's types.js at `path`) with each top-level `const …Schema = <call>` made
 * `__lazySchema(() => <call>)`, and an import of `lazySchema` from `lazySchemaPath` (our
 * src/protocol/lazy-schema.ts) as `__lazySchema`. Aliases (`const A = BSchema`) stay as they are.
 * @returns the new text and how many declarations were wrapped.
 * @throws when fewer than 100 are found: the SDK changed its layout and this needs a look.
 */
export async function lazySdkTypesSource(text, path, lazySchemaPath) {
  const ts = (await import('typescript')).default;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const spans = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.name.text.endsWith('Schema') && d.initializer && ts.isCallExpression(d.initializer)) spans.push([d.initializer.getStart(file), d.initializer.end]);
    }
  }
  if (spans.length < 100) throw new Error(`bundle-cli: ${path} has ${spans.length} top-level schema declarations, expected the SDK's ~170; update lazySdkTypes`);
  let out = text;
  for (const [start, end] of spans.reverse()) out = `${out.slice(0, start)}__lazySchema(() => ${out.slice(start, end)})${out.slice(end)}`;
  return { text: `import { lazySchema as __lazySchema } from ${JSON.stringify(lazySchemaPath)};\n${out}`, count: spans.length };
}
