import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schema } from '../src/config/schema';
import { repoRoot } from './support/processes';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

describe('README for a newcomer', () => {
  it('is at most 12 KB', () => {
    const bytes = Buffer.byteLength(readme, 'utf8');
    assert.ok(bytes <= 12 * 1024, `README.md is ${bytes} bytes`);
  });

  it('links only to docs that exist, and has the architecture diagram', () => {
    const links = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]!);
    assert.ok(links.length >= 6, 'links into docs/');
    for (const link of links) assert.ok(existsSync(join(repoRoot, link)), `${link} exists`);
    assert.match(readme, /```mermaid\nflowchart LR\n[\s\S]*core[\s\S]*activities[\s\S]*workflow[\s\S]*client/);
  });

  it('docs/configuration.md names every key of the configuration schema under its section', () => {
    const doc = readFileSync(join(repoRoot, 'docs', 'configuration.md'), 'utf8');
    const yaml = readFileSync(join(repoRoot, 'temporal.yaml'), 'utf8');
    for (const [section, keys] of Object.entries(schema)) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${section}\``));
      assert.ok(row, `a row for section ${section}`);
      for (const [key, setting] of Object.entries(keys)) {
        assert.ok(row.includes(`\`${key}\``), `docs/configuration.md lists ${section}.${key}`);
        const env = (setting as { env?: string }).env;
        if (env)
          assert.ok(yaml.includes(env) || doc.includes(env), `${section}.${key}'s variable ${env} is documented`);
      }
    }
  });
});
