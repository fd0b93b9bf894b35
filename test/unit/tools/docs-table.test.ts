/**
 * docs/runtime.md and docs/mcp.md show the catalogue's table exactly as the catalogue renders it
 * (test/helpers/tool-table.ts): a tool, name, argument or rule added in code must reach the docs.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../../src/tools/index.js';
import { toolTable } from '../../helpers/tool-table.js';

describe('the tool table in the docs', () => {
  it.each(['docs/runtime.md', 'docs/mcp.md'])('%s shows the catalogue as it is', async (file) => {
    const text = await readFile(file, 'utf8');
    expect(text.includes(toolTable(CATALOGUE)), `paste this table into ${file}:\n\n${toolTable(CATALOGUE)}\n`).toBe(true);
  });
});
