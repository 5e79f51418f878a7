import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { migrations } from '../../src/archive/migrations';

/**
 * SHA-256 of each released migration's SQL, per dialect, as databases applied it. A migration is never edited once
 * released (a database records only its version), so a change here means a new migration is wanted instead.
 */
const released: Record<number, { sqlite: string; postgres: string }> = {
  1: {
    sqlite: 'df2e080afe69109115e00430996d2ffae33829da70c0ffa1be5158d13c3e1296',
    postgres: 'ff640ed03d316f2444513ae0eb177eacda957f795fe29db626eac456560dd4eb',
  },
  2: {
    sqlite: 'a901442152c7569835b3db250e651597a077af776edacbed02166a7c49e47925',
    postgres: '35d022e41954ae25dae006860523ebc391824d445d01e6fb61324b5332208cde',
  },
  3: {
    sqlite: '6a64b355f21623b279a94f73b6da537317f0c66f61956e30118e583fe492ba28',
    postgres: 'df6c89c45a32fa911f8ee4deea558ff0b3054bfa4d654feda8f300c8352a747a',
  },
  4: {
    sqlite: 'aa53d4c0069621be2307528aba22082fb335cfef29bfc5b3c66430a042e1614d',
    postgres: 'aa53d4c0069621be2307528aba22082fb335cfef29bfc5b3c66430a042e1614d',
  },
};

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('archive/migrations', () => {
  it('runs the SQL of every released migration unchanged, in both dialects', () => {
    for (const m of migrations.filter((m) => m.version in released)) {
      assert.deepEqual(
        { sqlite: sha256(m.sqlite), postgres: sha256(m.postgres) },
        released[m.version],
        `migration ${m.version} (${m.name})`
      );
    }
    assert.deepEqual(
      migrations.map((m) => m.version).filter((v) => v in released),
      Object.keys(released).map(Number),
      'every released migration is still listed'
    );
  });
});
