import assert from 'node:assert/strict';
import {
  appendMissing,
  buildFoldLedger,
  extractLedger,
  keepsEntry,
  parseLedger,
  renderLedger,
  renderTask,
  asPointer,
  fitLedger,
  KIND_ORDER,
  supersedes,
  mergeLedgers,
} from '../../../../src/core/fold/state-ledger';
import { statementValues, subjectWords } from '../../../../src/core/fold/state-ledger/sentences';
import type { LedgerEntry, StateLedger } from '../../../../src/core/fold/state-ledger';
import { normalize } from '../../../../src/core/messages/normalize';
import { SUMMARY_MARKER } from '../../../../src/core/messages/summary-marker';
import { testCounter } from '../../../support/test-counter';
import { result, say, user } from '../../plan/fixtures';

const fact = (text: string, seq: number | null = 1): LedgerEntry => ({ kind: 'fact', text, seq });
const items = (messages: unknown[]) => normalize(messages, 'chat').items;
const count = (s: string): number => testCounter.countText(s);

describe('core/fold/state-ledger', () => {
  describe('extractLedger', () => {
    it('classifies short user statements and keeps the task whole, with their sequence numbers', () => {
      const l = extractLedger(
        items([
          user('Migrate the billing service to the new queue.'),
          say('On it.'),
          user(
            'Never print the API token. Keep each batch to at most 200 rows. I prefer tabs. The region is Osaka. What is left?'
          ),
        ]),
        { seqs: [10, 11, 12] }
      );
      assert.deepEqual(l.task, { text: 'Migrate the billing service to the new queue.', seq: 10 });
      assert.deepEqual(
        l.entries.map((e) => [e.kind, e.text, e.seq]),
        [
          ['rule', 'Never print the API token.', 12],
          ['constraint', 'Keep each batch to at most 200 rows.', 12],
          ['preference', 'I prefer tabs.', 12],
          ['fact', 'The region is Osaka.', 12],
          ['question', 'What is left?', 12],
        ]
      );
    });

    it('reads a standing request worded as a question as a statement, and any other question as a question', () => {
      const l = extractLedger(
        items([
          user('Fix the flaky test.'),
          say('On it.'),
          user('Could you always sign off as the Ops Desk? Can you check the logs?'),
        ]),
        {
          seqs: [1, 2, 3],
        }
      );
      assert.deepEqual(
        l.entries.map((e) => [e.kind, e.text]),
        [
          ['rule', 'Could you always sign off as the Ops Desk?'],
          ['question', 'Can you check the logs?'],
        ]
      );
    });

    it('reads system reminders in tool output, only binding statements from long pasted text, and decisions of the assistant', () => {
      const long = `${'Some documentation line about the module. '.repeat(20)}\nYou must run the linter before committing.`;
      const l = extractLedger(
        items([
          user('Do the task.'),
          user(long),
          {
            role: 'assistant',
            content: 'Let me look. We decided to use SQLite instead of Postgres for tests.',
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Read', arguments: '{"path":"a.ts"}' } }],
          },
          result('c1', 'ok\n<system-reminder>\nThe staging host is off limits.\n</system-reminder>'),
        ])
      );
      const texts = l.entries.map((e) => `${e.kind}: ${e.text}`);
      assert.ok(texts.includes('rule: You must run the linter before committing.'), texts.join('\n'));
      assert.ok(!texts.some((t) => t.includes('Some documentation line')), 'a pasted document is not a list of facts');
      assert.ok(texts.includes('decision: We decided to use SQLite instead of Postgres for tests.'));
      assert.ok(!texts.some((t) => t.includes('Let me look')));
      assert.ok(texts.includes('rule: The staging host is off limits.'));
    });

    it('keeps what the assistant echoes back of the aim, a limit or a request', () => {
      const said = [
        'To recap the aim: the importer has to accept both CSV dialects without a flag.',
        'Just to confirm, each export may hold at most 500 rows per file.',
        "You've asked for the changelog to stay in reverse chronological order, so I will keep it that way.",
        'My work today is aimed at one thing: green builds on the arm64 runners.',
      ];
      const l = extractLedger(items([user('Do the task.'), say(said.join(' '))]));
      const kinds = new Map(l.entries.map((e) => [e.text, e.kind]));
      assert.equal(kinds.get(said[0]!), 'goal');
      assert.equal(kinds.get(said[1]!), 'constraint');
      assert.ok(kinds.has(said[2]!), [...kinds.keys()].join('\n'));
      assert.equal(kinds.get(said[3]!), 'goal');
      // Checking a guess is still not an entry: a restatement needs enough words to state something.
      const short = extractLedger(items([user('Do the task.'), say('Just to confirm it.')]));
      assert.equal(short.entries.length, 0);
    });

    it('keeps a placeholder in angle brackets in what the user said', () => {
      const l = extractLedger(
        items([
          user('Do the task.'),
          user('Can we name branches like feature/<ticket>-short-description? The team does.'),
        ])
      );
      assert.ok(
        l.entries.some((e) => e.text.includes('feature/<ticket>-short-description')),
        l.entries.map((e) => e.text).join('\n')
      );
    });

    it('keeps what the assistant commits to or found, short tool results with a value, and riders of a rule', () => {
      const l = extractLedger(
        items([
          user('Sort out the refunds.'),
          user('We can only refund to the original card. No store credit, no gift cards.'),
          {
            role: 'assistant',
            content:
              "Noted. I won't force-push on shared branches. Let me read the file. The index on customer_id was dropped in migration 0042.",
            tool_calls: [
              { id: 'k', type: 'function', function: { name: 'Bash', arguments: '{"command":"kubectl get pods"}' } },
            ],
          },
          result('k', 'checkout-api-7d9f8c   1/1   Running   14   3d'),
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'p', type: 'function', function: { name: 'Read', arguments: '{"path":"policy.json"}' } },
            ],
          },
          result('p', '{"body": "Agents must verify the last four digits of the card."}'),
        ]),
        { seqs: [1, 2, 3, 4, 5, 6] }
      );
      const got = l.entries.map((e) => `${e.kind} #${e.seq}: ${e.text}`);
      assert.deepEqual(got, [
        'rule #2: We can only refund to the original card.',
        'rule #2: No store credit, no gift cards.',
        "rule #3: I won't force-push on shared branches.",
        'observation #3: The index on customer_id was dropped in migration 0042.',
        'observation #4: Bash(kubectl get pods) → checkout-api-7d9f8c 1/1 Running 14 3d',
        'rule #6: Read(policy.json) → {"body": "Agents must verify the last four digits of the card."}',
      ]);
    });

    it("leaves out the assistant's guesses and questions to itself; keeps its findings as facts and lasting steps", () => {
      const l = extractLedger(
        items([
          user('Find out why the nightly export fails.'),
          {
            role: 'assistant',
            content:
              'Maybe the cron entry at 02:00 overlaps the backup. I think `export.py` retries twice. ' +
              'But how does it decide when to stop? Wait, the lock file is /tmp/x.lock. ' +
              'Confirmed: it fails only on the nights the vendor rotates its certificate. ' +
              "The real bottleneck is the N+1 query on order lines. I'll read the log next. " +
              "I'll use the staging replica for every query from here on. " +
              "Sure — I'll answer in Spanish in every reply from here on. Sure, let me look at the cron file. " +
              'I looked at the mail records: reports.example.org forwards to a retired mailbox. I looked at the file.',
          },
        ]),
        { seqs: [1, 2] }
      );
      assert.deepEqual(
        l.entries.map((e) => `${e.kind}: ${e.text}`),
        [
          'fact: Confirmed: it fails only on the nights the vendor rotates its certificate.',
          'fact: The real bottleneck is the N+1 query on order lines.',
          "rule: I'll use the staging replica for every query from here on.",
          "rule: Sure — I'll answer in Spanish in every reply from here on.",
          'fact: I looked at the mail records: reports.example.org forwards to a retired mailbox.',
        ]
      );
    });

    it('keeps the latest task list with statuses, and only errors no later clean run resolved', () => {
      const call = (id: string, name: string, args: object) => ({
        id,
        type: 'function',
        function: { name, arguments: JSON.stringify(args) },
      });
      const l = extractLedger(
        items([
          user('Go.'),
          { role: 'assistant', content: null, tool_calls: [call('a', 'Bash', { command: 'make' })] },
          result('a', 'Error: missing header'),
          { role: 'assistant', content: null, tool_calls: [call('b', 'Bash', { command: 'make' })] },
          result('b', 'built'),
          { role: 'assistant', content: null, tool_calls: [call('c', 'Bash', { command: 'make test' })] },
          result('c', 'Error: 2 failing'),
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              call('d', 'TodoWrite', {
                todos: [
                  { content: 'build', status: 'completed' },
                  { content: 'fix tests', status: 'in_progress' },
                  { content: 'release', status: 'pending' },
                ],
              }),
            ],
          },
          result('d', 'ok'),
        ])
      );
      assert.deepEqual(
        l.entries.map((e) => [e.kind, e.status, e.text]),
        [
          ['goal', 'done', 'build'],
          ['goal', 'in progress', 'fix tests'],
          ['goal', 'next', 'release'],
          ['error', undefined, 'Bash(make test) → Error: 2 failing'],
        ]
      );
    });
  });

  describe('supersedes', () => {
    it('replaces a value whatever the wording and word order', () => {
      const old = fact('The deploy window is Tuesday.');
      for (const newer of [
        'Change of plan: the deploy window is now Thursday.',
        'The deploy window moved to Thursday.',
        'Thursday is the deploy window from here on.',
        'New deploy window: Thursday.',
        'Heads up, we had to move things around last night, so the deploy window is Thursday and the freeze stays.',
      ]) {
        assert.ok(supersedes(fact(newer, 2), old), newer);
      }
    });

    it('lets a change worded as a rule replace a goal on its subject, not another subject or what a tool showed', () => {
      const rule = (text: string): LedgerEntry => ({ kind: 'rule', text, seq: 2 });
      const newer = rule('Change of plan: the milestone for the quarter is only the billing export now, nothing else.');
      const goal: LedgerEntry = {
        kind: 'goal',
        text: 'The milestone for the quarter is the billing dashboard.',
        seq: 1,
      };
      assert.ok(supersedes(newer, goal));
      const limit: LedgerEntry = { kind: 'constraint', text: 'Keep the quarter milestone under 3 services.', seq: 1 };
      assert.ok(!supersedes(rule('Always tag the release builds now.'), limit), 'another subject');
      assert.ok(
        !supersedes(newer, { kind: 'observation', text: 'run(q) → milestone for the quarter: 14 tasks', seq: 1 })
      );
    });

    it('does not read an identifier prefix as an acronym of a later finding (corpus: a user fact was dropped)', () => {
      const incident = fact("Incident is INC-20931, it's a Sev2, and the status page entry is already up.");
      const finding: LedgerEntry = { kind: 'observation', text: '`_make_indent(num=2)` creates 8 spaces', seq: 2 };
      assert.ok(!supersedes(finding, incident));
    });

    it('lets a tool result showing the same record in a new state replace the earlier one, not another record', () => {
      const seen = (text: string, seq: number): LedgerEntry => ({ kind: 'observation', text, seq });
      const before = seen('crm(customer=41) → {"customer":{"shipping_address":"14 Elm Row, Edinburgh"}}', 1);
      const moved = seen(
        'crm(event=41) → {"event":"address_updated","customer":{"shipping_address":"2 Harbour Lane, Leith"}}',
        2
      );
      assert.ok(supersedes(moved, before));
      assert.ok(!supersedes(before, { ...moved, seq: 0 }), 'the later one has a leaf the earlier one lacks');
      const one = seen('db(get) → {"id":7,"status":"open"}', 1);
      assert.ok(!supersedes(seen('db(get) → {"id":8,"status":"closed"}', 2), one), 'another record');
      assert.ok(supersedes(seen('db(get) → {"id":7,"status":"closed"}', 2), one), 'the same record, a new status');
      assert.ok(!supersedes(seen('db(get) → status: closed (id 7)', 2), one), 'not JSON');
    });

    it('reads a date with a prefix as a value, and "I was wrong" as a withdrawal', () => {
      const said = (text: string, seq: number): LedgerEntry => ({ kind: 'said', text, seq });
      assert.ok(
        supersedes(
          said('the churn model launch slipped to mid-March because of the data issues', 2),
          said('we want the churn model in production by end of January', 1)
        )
      );
      const fact = (text: string, seq: number): LedgerEntry => ({ kind: 'fact', text, seq });
      const guess = fact('The root cause looks like the DNS resolver timing out.', 1);
      assert.ok(
        supersedes(fact('I was wrong earlier; the root cause is pool exhaustion in the ORM, DNS is fine.', 2), guess)
      );
      assert.ok(!supersedes(fact('I was wrong about the invoice total, it is 40 EUR.', 2), guess), 'another subject');
    });

    it('reads renaming, slipping and rolling forward as changes, and a plural name as the same name', () => {
      const cases: [LedgerEntry, string][] = [
        [fact('The release we are cutting is 2.3.0.'), "We're renumbering: the release will be 3.0.0."],
        [fact('Payroll runs on the 25th.'), 'Payroll slipped to the 28th this month.'],
        [fact('The canary serves build b-7710.'), 'We rolled forward, the canary serves b-7795 now.'],
        [
          { kind: 'constraint', text: 'The CPU quota for the project is 16, stay under that.', seq: 1 },
          'Good news: the quota was raised to 32 CPUs this morning.',
        ],
      ];
      for (const [old, newer] of cases) assert.ok(supersedes(fact(newer, 2), old), newer);
      assert.ok(
        !supersedes(fact('We swapped the order of the two import steps.', 2), fact('The deploy window is Tuesday.'))
      );
      assert.ok(!supersedes(fact('The report got renamed to Q3 summary.', 2), fact('Payroll runs on the 25th.')));
    });

    it('compares kinds: a pointer or statement of one kind never replaces another kind', () => {
      const rule = { kind: 'rule' as const, text: 'Never deploy the payments service before 09:00.', seq: 1 };
      assert.ok(!supersedes({ kind: 'goal', text: 'Deploy the payments service at 11:00.', seq: 2 }, rule));
      const p1: LedgerEntry = { kind: 'fact', text: '11 entries in the archive', seq: 3, pointer: true };
      const p2: LedgerEntry = { kind: 'rule', text: '4 entries in the archive', seq: 4, pointer: true };
      assert.ok(!supersedes(p2, p1));
      // Within the family of stated values, wording decides the kind: a limit restated as a fact still replaces it.
      const py = {
        kind: 'constraint' as const,
        text: 'Stay on Python 3.9 for compatibility with the cluster.',
        seq: 7,
      };
      assert.ok(supersedes(fact('Good news, the cluster got upgraded, we can target Python 3.11 now.', 8), py));
      const plotly = { kind: 'preference' as const, text: "I'd like the charts in Plotly.", seq: 9 };
      const altair = "On reflection let's do the charts in Altair instead, it plays nicer with our notebooks.";
      assert.ok(supersedes({ kind: 'said', text: altair, seq: 10 }, plotly));
      assert.ok(!supersedes({ kind: 'said', text: 'The tables stay in Plotly for now.', seq: 11 }, plotly));
      const cap = { kind: 'constraint' as const, text: 'Keep the batch size under 200.', seq: 5 };
      assert.ok(supersedes(fact('The batch size is 350 now.', 6), cap));
    });

    it('replaces a goal or what a tool showed by a later value of its subject, and reads inflected words as one subject', () => {
      const goal = { kind: 'goal' as const, text: 'Finish the quarterly report by Friday.', seq: 3 };
      assert.ok(supersedes(fact('The quarterly report deadline moved to Monday.', 4), goal));
      const seen = { kind: 'observation' as const, text: 'run(ref) → Replica lag on db-eu-2: 40 seconds', seq: 5 };
      assert.ok(
        supersedes({ kind: 'observation', text: 'run(ref) → Replica lag on db-eu-2: 3 seconds', seq: 6 }, seen)
      );
      // Two results of one tool share its call's words, not their subject.
      const hits = { kind: 'observation' as const, text: 'Bash(status 3) → cache hit rate: 121', seq: 5 };
      assert.ok(!supersedes({ kind: 'observation', text: 'Bash(status 4) → open tickets: 128', seq: 6 }, hits));
      // What a tool showed never replaces what someone said: the call's path shares words with anything.
      const edit =
        'Edit(/home/me/projects/app/lib/router.ex) → The file /home/me/projects/app/lib/router.ex has been updated.';
      const project = fact('The GCP project is acme-ml-sandbox-2291, not the prod one.');
      assert.ok(!supersedes({ kind: 'observation', text: edit, seq: 2 }, project));
      const rule = { kind: 'rule' as const, text: 'Never run deploys from laptops outside the VPN.', seq: 1 };
      assert.ok(
        !supersedes(fact('Deployment from the VPN laptops is fine since 2024.', 2), rule),
        'rules only by rules'
      );
      assert.ok(supersedes(fact('Our deployment happens at 16:00.', 8), fact('The deploy happens at 14:00.', 7)));
    });

    it('a replaced decision names the replaced one by its archive number instead of restating its value', () => {
      const merged = mergeLedgers(
        { entries: [{ kind: 'decision', text: 'We decided to go with Redis 6 for the cache.', seq: 4 }] },
        { entries: [{ kind: 'decision', text: 'We decided to go with Redis 7 for the cache instead.', seq: 9 }] },
        { cleanCalls: new Set(), assistantSpoke: false }
      );
      assert.deepEqual(merged.entries, [
        { kind: 'decision', text: 'We decided to go with Redis 7 for the cache instead.', seq: 9, was: '#4' },
      ]);
      assert.ok(!renderLedger(merged).includes('Redis 6'), renderLedger(merged));
    });

    it('reads a change worded as one: fewer shared words, and a statement with no value can be replaced', () => {
      const said = (text: string, seq = 1): LedgerEntry => ({ kind: 'said', text, seq });
      // The older one states no value: two shared subject words and the wording of a change.
      assert.ok(
        supersedes(
          said('Actually, forget the long form — write the release notes as short bullet lists.', 2),
          said('Write the release notes in long paragraphs.')
        )
      );
      assert.ok(
        supersedes(
          { kind: 'rule', text: 'Post the nightly status in the team channel instead, never by email.', seq: 2 },
          said('Send the nightly status by email.')
        )
      );
      // One shared word is enough when the older value is gone and the newer says it changed.
      assert.ok(
        supersedes(
          fact('The dentist rescheduled to Wednesday at 9.', 2),
          fact('The appointment with the dentist is Friday at 4.')
        )
      );
      assert.ok(
        supersedes(
          fact('Ops brought the maintenance forward to the 3rd, so plan around it.', 2),
          fact('Maintenance starts on the 9th.')
        )
      );
      // Not without the wording of a change, nor on one shared word when the older states no value.
      assert.ok(
        !supersedes(
          fact('The dentist said Wednesday at 9 works for a cleaning.', 2),
          fact('The appointment with the dentist is Friday at 4.')
        )
      );
      assert.ok(
        !supersedes(said('Now add tests for the answers module.', 2), said('Please keep the answers short and plain.'))
      );
      assert.ok(
        !supersedes(said('Now the charts stay in Plotly.', 2), {
          kind: 'preference',
          text: "I'd like the charts in Plotly.",
          seq: 1,
        })
      );
      assert.ok(
        !supersedes(
          { kind: 'rule', text: 'Never email the nightly status now.', seq: 2 },
          fact('The nightly status goes out at 06:00.')
        )
      );
      // A value of another shape on one shared word is another subject: a path is not replaced by a count.
      const path = fact('The nightly exports land in s3://acme-ops/exports.');
      assert.ok(!supersedes(fact('Now rerun the nightly job with 4 workers.', 2), path));
      assert.ok(!supersedes(said('Actually, document the nightly exports first.', 2), path));
      assert.ok(supersedes(fact('The nightly exports moved to s3://acme-ops/v2/exports.', 2), path));
    });

    it('replaces a statement withdrawn by naming what it drops, or a value dropped', () => {
      const said = (text: string, seq = 1): LedgerEntry => ({ kind: 'said', text, seq });
      const goal = (text: string, seq = 1): LedgerEntry => ({ kind: 'goal', text, seq });
      assert.ok(
        supersedes(
          fact('Change of plans: forget the import work, the priority is the billing export.', 2),
          goal('The main objective is to clean up the import pipeline.')
        )
      );
      // A value the newer statement drops is not one it states.
      assert.ok(
        supersedes(fact('Forget the CSV, I want the digest in a Notion page.', 2), {
          kind: 'preference',
          text: "I'd like the digest as a CSV file.",
          seq: 1,
        })
      );
      // Not a withdrawal that keeps the older value, nor one of another subject.
      const path = fact('The nightly exports land in s3://acme-ops/exports.');
      assert.ok(!supersedes(said('Actually, document the nightly exports first.', 2), path));
      assert.ok(
        !supersedes(fact('Forget the lint warnings for now.', 2), goal('The main objective is the import pipeline.'))
      );
    });

    it('does not replace a goal on one shared word, however the newer statement is worded', () => {
      const goal = (text: string): LedgerEntry => ({ kind: 'goal', text, seq: 1 });
      const decision = (text: string): LedgerEntry => ({ kind: 'decision', text, seq: 2 });
      const backups = goal('I want to set up automatic daily backups of the database with 30 days of retention.');
      assert.ok(!supersedes(decision("I'll restore from the backup instead of replaying the WAL."), backups));
      assert.ok(
        !supersedes(
          decision('Instead of trying to fix the root cause, let me fix the symptom.'),
          goal('Fix the flaky upload test.')
        )
      );
      // A withdrawal needs the word it drops to be the older one's, or two of its subject words.
      assert.ok(
        !supersedes(
          fact('Change of plans: forget the lint warnings, the priority is the nightly build.', 2),
          goal('The main objective is to clean up the import pipeline.')
        )
      );
      assert.ok(
        supersedes(
          fact('Change of plans: the priority for the import pipeline is now the retry logic.', 2),
          goal('The main objective is to clean up the import pipeline.')
        )
      );
    });

    it('reads "no longer" before a verb as no withdrawal, and a rule in capitals as more than one slot', () => {
      const limit = (text: string, seq = 1): LedgerEntry => ({ kind: 'constraint', text, seq });
      const rule = (text: string, seq = 1): LedgerEntry => ({ kind: 'rule', text, seq });
      assert.ok(
        !supersedes(
          fact('Reason is "no longer needed." Please cancel order #W93.', 2),
          limit("Runs over 8 GPUs need approval in #ml-compute first, don't just launch them.")
        )
      );
      assert.ok(
        !supersedes(
          rule('Please DO NOT run commands through the `-c` flag, create files instead.', 2),
          rule('Remember, YOU CAN ONLY ENTER ONE COMMAND AT A TIME.')
        )
      );
    });

    it('on one shared word, replaces only by an update stating at most two values', () => {
      const pref = (text: string): LedgerEntry => ({ kind: 'preference', text, seq: 1 });
      const decision = (text: string): LedgerEntry => ({ kind: 'decision', text, seq: 2 });
      assert.ok(
        !supersedes(
          decision('The subquery groups by U0.`email` and Postgres instead of just U0.`email`.'),
          pref('Emojis are OK in chat but not in email.')
        )
      );
      assert.ok(
        supersedes(
          fact('The vendor left the tender; the rival we face now is Corvane.', 2),
          fact('Our main rival on this account is Brightwave.')
        )
      );
    });

    it('does not read a unit of time as the slot of a count, nor a call as the subject of its results', () => {
      const limit = (text: string, seq = 1): LedgerEntry => ({ kind: 'constraint', text, seq });
      assert.ok(
        !supersedes(
          limit('Reviews take 3 days of manual matching instead.', 2),
          limit('Flag accounts at least 30 days before renewal.')
        )
      );
      assert.ok(
        !supersedes(
          limit('run(ref=b) → Never run VACUUM during peak (10:00-22:00 UTC), use pg_repack instead.', 2),
          limit('run(ref=a) → {"plan":"startup","seats":25,"note":"upgrade required"}')
        )
      );
    });

    it('replaces a count of the same unit, and a name the update no longer states', () => {
      const clinics = fact('The pilot has 450 enrolled clinics.');
      assert.ok(supersedes(fact('After the audit we are down to 380 clinics.', 2), clinics));
      assert.ok(!supersedes(fact('The pilot runs for 12 weeks.', 2), clinics));
      assert.ok(
        supersedes(
          fact('The processor we use now is Adyen.', 2),
          fact('Our main payment processor for Europe is Stripe.')
        )
      );
      assert.deepEqual(statementValues('The wiki lives at wiki.acme.io now.'), ['wiki.acme.io']);
      assert.deepEqual(statementValues('The launch slipped to mid-March.'), ['mid-March']);
      assert.deepEqual(statementValues('a well-known fix'), []);
    });

    it('an update that only fills the slot of older entries replaces the most recent one', () => {
      const goal = (text: string, seq: number): LedgerEntry => ({ kind: 'goal', text, seq });
      const older = [
        goal('The first objective is the import pipeline.', 1),
        goal('Next objective: speed up the import.', 2),
      ];
      const merged = mergeLedgers(
        { entries: older },
        { entries: [fact('Change of plans: forget the import, the priority is the billing export.', 3)] },
        { cleanCalls: new Set(), assistantSpoke: false }
      );
      assert.deepEqual(
        merged.entries.map((x) => x.seq),
        [1, 3]
      );
    });

    it('reads a capitalised first word as a value only when it names something', () => {
      assert.deepEqual(statementValues('Send me the weekly digest by email.'), []);
      assert.deepEqual(statementValues('Looking at the logs, the job failed twice.'), []);
      assert.deepEqual(statementValues('Keiko has taken over the pager.'), ['Keiko']);
      assert.deepEqual(statementValues('AWS bills us monthly.'), ['AWS']);
      assert.deepEqual(statementValues('The host moved to Frankfurt.'), ['Frankfurt']);
      assert.deepEqual(subjectWords('Put the references in a list.'), subjectWords('the reference list: put it there'));
    });

    it('does not replace a statement about another subject, a repeat, or one without a value', () => {
      const old = fact('The deploy window is Tuesday.');
      assert.ok(!supersedes(fact('The release freeze is Thursday.', 2), old));
      assert.ok(!supersedes(fact('The deploy window is Tuesday.', 2), old));
      assert.ok(!supersedes(fact('The deploy window is unclear to me.', 2), old));
      assert.ok(!supersedes({ kind: 'question', text: 'Is the deploy window Thursday?', seq: 2 }, old));
    });
  });

  describe('render and parse', () => {
    const ledger: StateLedger = {
      task: { text: 'Port the exporter.\n\nKeep the old flags.', seq: 3 },
      entries: [
        { kind: 'rule', text: 'Never push to main.', seq: 4 },
        { kind: 'decision', text: 'Use Postgres 16.', seq: 9, was: 'Use Postgres 15.' },
        { kind: 'fact', text: 'The bucket is s3://acme/exports.', seq: null },
        { kind: 'goal', text: 'write the migration', seq: 12, status: 'in progress' },
      ],
    };

    it('round-trips: what one fold prints, the next reads back', () => {
      const text = [renderTask(ledger.task), renderLedger(ledger), 'Tool actions:\n- Read: a.ts'].join('\n\n');
      const parsed = parseLedger(text);
      assert.deepEqual(parsed.ledger, ledger);
      assert.deepEqual(parsed.narrative, ['Tool actions:', '- Read: a.ts']);
    });

    it('round-trips pointers, statuses and replaced values exactly, and a task cut at a sentence', () => {
      const withPointers: StateLedger = {
        task: { text: 'Port the exporter to Go. Keep the old flags working for a release.', seq: 3 },
        entries: [
          asPointer({ kind: 'rule', text: 'Never share customer data with a third party; escalate instead.', seq: 4 }),
          { kind: 'goal', text: 'write the migration', seq: 12, status: 'next', pointer: true },
          { kind: 'decision', text: 'Use Postgres 16.', seq: 9, was: 'Use Postgres 15.' },
          asPointer({ kind: 'constraint', text: 'Keep each batch to at most 200 rows, never more.', seq: null }),
        ],
      };
      const text = [renderTask(withPointers.task, 30), renderLedger(withPointers)].join('\n\n');
      assert.ok(!text.includes('…'), text);
      const parsed = parseLedger(text).ledger;
      const inPrintOrder = KIND_ORDER.flatMap((k) => withPointers.entries.filter((e) => e.kind === k));
      assert.deepEqual(parsed.entries, inPrintOrder);
      assert.equal(parsed.task?.text, 'Port the exporter to Go.\n(the rest: archive #3)');
      assert.equal(renderLedger(parsed), renderLedger(withPointers));
    });

    it('makes a pointer of the binding clauses, verbatim and in order, never a clause cut', () => {
      const p = asPointer({
        kind: 'rule',
        text: 'Before you touch anything in the repo, one thing: never push directly to main. Always open a PR, even for a one-line fix.',
        seq: 7,
      });
      assert.deepEqual([p.kind, p.seq, p.pointer], ['rule', 7, true]);
      assert.equal(p.text, 'never push directly to main; Always open a PR');
      assert.equal(
        asPointer({ kind: 'fact', text: 'Our bucket, by the way, is s3://acme/x.', seq: 2 }, 3).text,
        'is s3://acme/x'
      );
    });
  });

  describe('asPointer', () => {
    it('keeps the identifiers of the clauses it leaves out after the ones it keeps', () => {
      const e: LedgerEntry = {
        kind: 'rule',
        text: 'Never restart the ingest workers during business hours, the last incident is INC-20931, see the postmortem.',
        seq: 3,
      };
      const p = asPointer(e, 8);
      assert.equal(p.text, 'Never restart the ingest workers during business hours; INC-20931');
      assert.deepEqual(parseLedger(renderLedger({ entries: [p] })).ledger.entries, [p]);
      // Words with no digit are not identifiers; a clause kept is not repeated.
      assert.equal(
        asPointer({ ...e, text: 'Always page the on-call first, then the team lead.' }, 6).text,
        'Always page the on-call first'
      );
    });
  });

  describe('fitLedger', () => {
    const rule = (n: number): LedgerEntry => ({
      kind: 'rule',
      text: `Rule ${n}: never deploy the service called unit-${n} on a Friday without a second reviewer present.`,
      seq: n,
    });
    const aside = (n: number): LedgerEntry => ({
      kind: 'said',
      text: `By the way, the coffee machine upstairs was making a strange noise again this ${n === 1 ? 'morning' : 'evening'}.`,
      seq: 100 + n,
    });
    const ledger: StateLedger = {
      task: { text: 'Ship the billing export. It must run nightly.', seq: 1 },
      entries: [aside(1), rule(2), aside(3), rule(4), { kind: 'fact', text: 'The bucket is s3://acme/x.', seq: 5 }],
    };

    it('keeps rules whole before anything else, and every entry at least as a pointer with its number', () => {
      const all = fitLedger(ledger, { maxTokens: 10_000, count });
      assert.equal(all.pointers + all.dropped, 0);
      const budgets = [160, 130, 110, 90, 70];
      for (const maxTokens of budgets) {
        const f = fitLedger(ledger, { maxTokens, count });
        const text = `${f.task}\n\n${f.body}`;
        assert.ok(count(text) <= maxTokens, `${maxTokens}: ${count(text)}\n${text}`);
        assert.ok(!text.includes('…'), text);
        const rules = f.ledger.entries.filter((e) => e.kind === 'rule');
        const asides = f.ledger.entries.filter((e) => e.kind === 'said');
        // An aside is whole only when every rule is.
        if (asides.some((e) => !e.pointer))
          assert.ok(
            rules.every((e) => !e.pointer),
            text
          );
        for (const e of f.ledger.entries) assert.ok(e.seq !== null && text.includes(`#${e.seq}`), text);
        assert.deepEqual(parseLedger(text).ledger.entries, f.ledger.entries);
      }
      const tight = fitLedger(ledger, { maxTokens: 130, count });
      assert.ok(
        tight.ledger.entries.filter((e) => e.kind === 'rule').every((e) => !e.pointer),
        tight.body
      );
      assert.ok(
        tight.ledger.entries.filter((e) => e.kind === 'said').every((e) => e.pointer),
        tight.body
      );
    });

    it('drops entries only when not even their pointers fit, and says when a rule or the task went', () => {
      for (let maxTokens = 10; maxTokens <= 200; maxTokens += 5) {
        const f = fitLedger(ledger, { maxTokens, count });
        const text = `${f.task}\n\n${f.body}`;
        assert.ok(count(text) <= maxTokens, `${maxTokens}: ${text}`);
        const rules = f.ledger.entries.filter((e) => e.kind === 'rule').length;
        assert.equal(f.mustKeepLost, rules < 2 || f.task === '', `${maxTokens}: ${text}`);
        // What goes, goes by tier: a fact is kept as long as any rule is, an aside only if every fact is.
        if (f.ledger.entries.some((e) => e.kind === 'said')) assert.ok(rules === 2, text);
        assert.equal(f.dropped, 5 - f.ledger.entries.length);
      }
      assert.equal(fitLedger(ledger, { maxTokens: 200, count }).mustKeepLost, false);
      assert.equal(fitLedger(ledger, { maxTokens: 12, count }).mustKeepLost, true);
    });

    it('keeps a fact or a preference whole before what a tool showed keeps its pointer', () => {
      const seen = (n: number): LedgerEntry => ({
        kind: 'observation',
        text: `Bash(ls build/out-${n}) → artifact-${n}.tar written with 3 files at 12:0${n}`,
        seq: 10 + n,
      });
      const fact: LedgerEntry = {
        kind: 'fact',
        text: 'The customer account is ACME-4471 on the Enterprise plan, renewed in March 2024 for three more years.',
        seq: 1,
      };
      const pref: LedgerEntry = { kind: 'preference', text: 'I prefer short answers with the numbers first.', seq: 2 };
      const l: StateLedger = { entries: [fact, pref, ...[1, 2, 3, 4, 5, 6, 7, 8].map(seen)] };
      const whole = count(fitLedger(l, { maxTokens: 10_000, count }).body);
      let evicted = 0;
      for (let room = 60; room <= whole; room += 5) {
        const f = fitLedger(l, { maxTokens: room, count });
        assert.ok(count(f.body) <= room, f.body);
        // What a tool showed keeps even a pointer only when the fact and the preference are whole.
        if (f.ledger.entries.some((e) => e.kind === 'observation'))
          for (const kind of ['fact', 'preference'])
            assert.ok(
              f.ledger.entries.some((e) => e.kind === kind && !e.pointer),
              `${room}: ${f.body}`
            );
        if (f.dropped > 0 && f.ledger.entries.some((e) => e.kind === 'observation')) evicted += 1;
      }
      assert.ok(evicted > 0, 'some room keeps the fact whole and some of what tools showed');
    });

    it('holds only what tools showed and the assistant found to the soft room, not what the user said', () => {
      const aside: LedgerEntry = {
        kind: 'said',
        text: 'The whole team would be happier with fewer meetings on the calendar this quarter.',
        seq: 1,
      };
      const seen: LedgerEntry = {
        kind: 'observation',
        text: 'Bash(uptime) → load average 0.42 over 15 minutes',
        seq: 2,
      };
      const f = fitLedger({ entries: [aside, seen] }, { maxTokens: 10_000, softTokens: 4, count });
      assert.deepEqual(
        f.ledger.entries.map((e) => [e.seq, e.pointer === true]),
        [[1, false]],
        f.body
      );
    });

    it('drops what says least among what tools showed first, not merely the oldest', () => {
      const rich: LedgerEntry = {
        kind: 'observation',
        text: 'Read(config/prod.yaml) → region: eu-west-3, replicas: 6, image: api@sha256:9f2c, owner: team-billing',
        seq: 1,
      };
      const thin: LedgerEntry = { kind: 'observation', text: 'Bash(date) → 20260212165422 done', seq: 2 };
      const l: StateLedger = { entries: [rich, thin] };
      const richOnly = fitLedger({ entries: [rich] }, { maxTokens: 10_000, count });
      const f = fitLedger(l, { maxTokens: count(richOnly.body) + 2, count });
      assert.deepEqual(
        f.ledger.entries.map((e) => e.seq),
        [1],
        f.body
      );
    });
  });

  describe('buildFoldLedger', () => {
    it('merges the ledger of the previous summary whole with the new messages, the new value replacing the old', () => {
      const first = buildFoldLedger(
        items([user('Build the report.'), user('Never email the customer directly. The deploy window is Tuesday.')]),
        [0, 1]
      );
      const summary = `${SUMMARY_MARKER}]\n${renderTask(first.ledger.task)}\n\n${renderLedger(first.ledger)}`;
      const second = buildFoldLedger(items([user(summary), user('The deploy window moved to Friday.')]), [null, 5]);
      assert.equal(second.ledger.task?.text, 'Build the report.');
      assert.deepEqual(
        second.ledger.entries.map((e) => [e.text, e.seq]),
        [
          ['Never email the customer directly.', 1],
          ['The deploy window moved to Friday.', 5],
        ]
      );
    });
  });

  describe('appendMissing', () => {
    const ledger: StateLedger = {
      task: { text: 'Fix the login bug in auth/session.ts.', seq: 0 },
      entries: [
        { kind: 'rule', text: 'Never log the session token.', seq: 2 },
        { kind: 'constraint', text: 'Tests must finish within 90 seconds.', seq: 3 },
      ],
    };

    it('appends what a summary dropped, in the ledger format, and nothing when it kept everything', () => {
      const partial = 'Fixed the login bug in auth/session.ts. Never log the session token.';
      assert.ok(keepsEntry(partial, 'Never log the session token.'));
      const r = appendMissing(partial, ledger, { maxTokens: 500, count });
      assert.equal(r.appended, 1);
      assert.match(r.text, /Constraints and limits:\n- \[#3\] Tests must finish within 90 seconds\.$/);
      assert.deepEqual(
        parseLedger(r.text).ledger.entries.map((e) => e.text),
        ['Tests must finish within 90 seconds.']
      );
      const full = appendMissing(`${partial} Tests must finish within 90 seconds.`, ledger, { maxTokens: 500, count });
      assert.equal(full.appended, 0);
    });

    it('stays within its cap', () => {
      const r = appendMissing('Nothing useful.', ledger, { maxTokens: 30, count });
      assert.ok(count(r.text) - count('Nothing useful.') <= 32, r.text);
      assert.equal(r.appended + r.omitted, 3);
    });
  });
});
