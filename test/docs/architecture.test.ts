import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const srcFolders = readdirSync(join(root, 'src'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

describe('docs describe the tree as it is', () => {
  it('reads the folders of src/ (so the checks below are not vacuous)', () => {
    assert.ok(srcFolders.length >= 10, `src/ folders: ${srcFolders.join(', ')}`);
  });

  for (const doc of ['architecture.md', 'development.md']) {
    it(`docs/${doc} names every folder of src/, and no folder src/ lacks`, () => {
      const text = readFileSync(join(root, 'docs', doc), 'utf8');
      const missing = srcFolders.filter((f) => !text.includes(`src/${f}/`));
      assert.deepEqual(missing, [], `docs/${doc} does not name ${missing.map((f) => `src/${f}/`).join(', ')}`);
      const named = new Set([...text.matchAll(/\bsrc\/([a-z-]+)\//g)].map((m) => m[1]!));
      const stale = [...named].filter((f) => !srcFolders.includes(f));
      assert.deepEqual(stale, [], `docs/${doc} names folders src/ does not have: ${stale.join(', ')}`);
    });
  }

  it('the layers in eslint.config.mjs rank every folder of src/', () => {
    const config = readFileSync(join(root, 'eslint.config.mjs'), 'utf8');
    const ranks = config.slice(
      config.indexOf('const layerRank = {'),
      config.indexOf('};', config.indexOf('const layerRank'))
    );
    const unranked = srcFolders.filter((f) => !new RegExp(`\\b${f}: \\d+`).test(ranks));
    assert.deepEqual(unranked, [], `eslint.config.mjs layerRank lacks ${unranked.join(', ')}`);
  });
});
