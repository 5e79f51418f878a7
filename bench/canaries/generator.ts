/**
 * Typed canaries for the fold-survival harness: statements of a kind an agent must not forget (a rule, a limit, a
 * fact, a goal, a preference, an identifier, and updates that replace an earlier value), planted into real sessions
 * at early, middle and late positions. Seeded and varied: each type has several phrasings, some without any of the
 * words a keyword extractor would look for, and every value is drawn at random. Nothing here is shared with the
 * extractor's word lists.
 */

/** What a canary stands for. */
export type CanaryType = 'rule' | 'constraint' | 'fact' | 'goal' | 'preference' | 'identifier' | 'update';
/** Where in the session it is planted. */
export type CanaryPosition = 'early' | 'middle' | 'late';

export const CANARY_TYPES: readonly CanaryType[] = [
  'rule',
  'constraint',
  'fact',
  'goal',
  'preference',
  'identifier',
  'update',
];
export const CANARY_POSITIONS: readonly CanaryPosition[] = ['early', 'middle', 'late'];

/** One planted canary. */
export interface Canary {
  id: string;
  type: CanaryType;
  position: CanaryPosition;
  /** The planted statement (for `update`: the statement of the new value). */
  text: string;
  /** Strings that must all appear on one line of the context for the canary to count as kept (case-insensitive). */
  probes: string[];
  /** `update` only: the statement it replaces, and the old value with the anchor that marks it as stale. */
  original?: { text: string; stale: string[] };
  /** How it travels: its own user message, or an injected `<system-reminder>` in a tool result. */
  carrier: 'user' | 'reminder';
}

/** A seeded generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const letters = (r: Rand, n: number): string =>
  Array.from({ length: n }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ'[int(r, 0, 23)]).join('');

const FIRST = ['Marisol', 'Tobias', 'Ingrid', 'Kwame', 'Priya', 'Lucien', 'Hana', 'Dmitri', 'Aoife', 'Rafael'];
const LAST = [
  'Okafor',
  'Lindqvist',
  'Brennan',
  'Tanaka',
  'Moreau',
  'Haddad',
  'Novak',
  'Castillo',
  'Abara',
  'Whitfield',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const CITIES = ['Lisbon', 'Osaka', 'Nairobi', 'Montreal', 'Tallinn', 'Cordoba', 'Auckland', 'Bergen'];
const name = (r: Rand): string => `${pick(r, FIRST)} ${pick(r, LAST)}`;

/** A statement template: builds the text and its probes from fresh random values. */
type Template = (r: Rand) => { text: string; probes: string[] };

const TEMPLATES: Record<Exclude<CanaryType, 'update'>, readonly Template[]> = {
  rule: [
    (r) => {
      const code = `${letters(r, 2)}-${int(r, 1000, 9999)}`;
      return {
        text: `Never share the access code ${code} with anyone, not even in a log line.`,
        probes: [code, 'share'],
      };
    },
    (r) => {
      const code = `${letters(r, 3)}${int(r, 100, 999)}`;
      return { text: `The vault passphrase ${code} stays between the two of us.`, probes: [code, 'between'] };
    },
    (r) => {
      const host = `db-${pick(r, CITIES).toLowerCase()}-${int(r, 10, 99)}`;
      return {
        text: `Hands off ${host}: that box is production and nobody writes to it.`,
        probes: [host, 'production'],
      };
    },
    (r) => {
      const branch = `release/${int(r, 2, 9)}.${int(r, 0, 20)}`;
      return { text: `You must not force-push to ${branch} under any circumstances.`, probes: [branch, 'force-push'] };
    },
    (r) => {
      const who = name(r);
      return { text: `Anything touching payroll goes past ${who} before it ships.`, probes: [who, 'payroll'] };
    },
  ],
  constraint: [
    (r) => {
      const n = int(r, 120, 980);
      return { text: `Keep every batch to at most ${n} rows.`, probes: [`${n} rows`] };
    },
    (r) => {
      const n = int(r, 1100, 9800);
      return { text: `The partner API gives us ${n} calls an hour and not one more.`, probes: [`${n} calls`] };
    },
    (r) => {
      const n = int(r, 130, 990);
      return { text: `Replies over ${n} words get cut off by the widget, so stay below that.`, probes: [`${n} words`] };
    },
    (r) => {
      const n = int(r, 1200, 9900);
      return { text: `We can spend no more than $${n} on the cloud bill this month.`, probes: [`$${n}`] };
    },
    (r) => {
      const n = int(r, 11, 95);
      return {
        text: `A migration that runs longer than ${n} minutes gets killed by the ops window.`,
        probes: [`${n} minutes`, 'migration'],
      };
    },
  ],
  fact: [
    (r) => {
      const v = `${int(r, 11, 17)}.${int(r, 1, 9)}`;
      return { text: `For the record, the staging cluster runs Postgres ${v}.`, probes: [`Postgres ${v}`, 'staging'] };
    },
    (r) => {
      const acc = `AC${int(r, 100000, 999999)}`;
      return { text: `The customer's account number is ${acc}.`, probes: [acc, 'account'] };
    },
    (r) => {
      const who = name(r);
      return { text: `${who} owns the billing service.`, probes: [who, 'billing'] };
    },
    (r) => {
      const city = pick(r, CITIES);
      return { text: `Our primary data centre sits in ${city}.`, probes: [city, 'data centre'] };
    },
    (r) => {
      const n = int(r, 21, 89);
      return { text: `Roughly ${n} percent of traffic comes from the mobile app.`, probes: [`${n} percent`, 'mobile'] };
    },
  ],
  goal: [
    (r) => {
      const mod = `${pick(r, ['ledger', 'invoice', 'quota', 'audit', 'export'])}_${letters(r, 2).toLowerCase()}${int(r, 10, 99)}`;
      return {
        text: `Once this works, the next step is porting the ${mod} module to the new API.`,
        probes: [mod, 'port'],
      };
    },
    (r) => {
      const f = `${pick(r, ['dark mode', 'bulk export', 'SSO login', 'audit trail', 'offline sync'])}`;
      const d = pick(r, DAYS);
      return { text: `What we are really after: ${f} shipped by ${d}.`, probes: [f, d] };
    },
    (r) => {
      const table = `${pick(r, ['orders', 'events', 'sessions', 'payments'])}_${int(r, 2019, 2025)}`;
      return { text: `After that we still have to backfill the ${table} table.`, probes: [table, 'backfill'] };
    },
    (r) => {
      const id = `${letters(r, 3)}-${int(r, 100, 999)}`;
      return { text: `Closing out ${id} is the point of this whole session.`, probes: [id, 'closing'] };
    },
  ],
  preference: [
    (r) => {
      const lang = pick(r, ['British English', 'Canadian French', 'Brazilian Portuguese', 'plain Spanish']);
      return { text: `When you write to me, use ${lang}.`, probes: [lang] };
    },
    (r) => {
      const style = pick(r, ['Conventional Commits', 'gitmoji', 'the Linux kernel style']);
      return { text: `I like commit messages in ${style}.`, probes: [style, 'commit'] };
    },
    (r) => {
      const n = int(r, 72, 140);
      return {
        text: `Lines of ${n} characters or fewer read best for me in code you show.`,
        probes: [`${n} characters`],
      };
    },
    (r) => {
      const tool = pick(r, ['pnpm', 'Yarn Berry', 'Bun', 'Poetry', 'uv']);
      return { text: `Given the choice, reach for ${tool} over the alternatives.`, probes: [tool] };
    },
  ],
  identifier: [
    (r) => {
      const b = `s3://acme-${letters(r, 4).toLowerCase()}-${int(r, 100, 999)}/exports`;
      return { text: `The build artifacts go to ${b}.`, probes: [b] };
    },
    (r) => {
      const t = `${letters(r, 3)}-${int(r, 1000, 9999)}`;
      return { text: `Tracking ticket for all of this: ${t}.`, probes: [t] };
    },
    (r) => {
      const e = `svc-${letters(r, 4).toLowerCase()}@deploy.example.org`;
      return { text: `Deploys authenticate as ${e}.`, probes: [e] };
    },
    (r) => {
      const p = `config/${pick(r, ['feature', 'tenant', 'region'])}-${int(r, 10, 99)}.yaml`;
      return { text: `The flags we care about live in ${p}.`, probes: [p] };
    },
  ],
};

/** Subjects that change value, with fresh value pairs and the phrasings of the first statement and of its update. */
const UPDATE_SUBJECTS: readonly { subject: string; value: (r: Rand) => string }[] = [
  { subject: 'deploy window', value: (r) => pick(r, DAYS) },
  { subject: 'release freeze', value: (r) => `${pick(r, DAYS)} ${int(r, 10, 23)}:00` },
  { subject: 'audit contact', value: (r) => name(r) },
  { subject: 'retry limit', value: (r) => `${int(r, 101, 999)} attempts` },
  { subject: 'staging region', value: (r) => pick(r, CITIES) },
  { subject: 'invoice cutoff', value: (r) => `day ${int(r, 2, 28)} of the month` },
];
const ORIGINAL: readonly ((s: string, v: string) => string)[] = [
  (s, v) => `The ${s} is ${v}.`,
  (s, v) => `Heads up, ${s}: ${v}.`,
  (s, v) => `We agreed the ${s} would be ${v}.`,
];
const UPDATE: readonly ((s: string, v: string) => string)[] = [
  (s, v) => `Change of plan: the ${s} is now ${v}.`,
  (s, v) => `The ${s} moved to ${v}.`,
  (s, v) => `Correction on the ${s} — make it ${v} instead.`,
  (s, v) => `${v} is the ${s} from here on.`,
  (s, v) => `New ${s}: ${v}.`,
];

/** Picks an index of `n` not in `used` (under `prefix`), and marks it; repeats only once all were used. */
function fresh(r: Rand, n: number, used: Set<string>, prefix: string): number {
  const free = Array.from({ length: n }, (_, i) => i).filter((i) => !used.has(`${prefix}${i}`));
  const i = free.length > 0 ? pick(r, free) : int(r, 0, n - 1);
  used.add(`${prefix}${i}`);
  return i;
}

/**
 * Draws one canary of a type. Within one session (one `used` set) a phrasing or an update subject is not drawn twice
 * while others are left: two statements of one template about one subject would be an update, not two canaries.
 *
 * @returns the canary (without its planting position's index)
 */
export function drawCanary(
  r: Rand,
  type: CanaryType,
  position: CanaryPosition,
  id: string,
  used: Set<string> = new Set()
): Canary {
  const carrier = (type === 'rule' || type === 'constraint') && r() < 0.4 ? 'reminder' : 'user';
  if (type !== 'update') {
    const templates = TEMPLATES[type];
    const { text, probes } = templates[fresh(r, templates.length, used, type)]!(r);
    return { id, type, position, text, probes, carrier };
  }
  const s = UPDATE_SUBJECTS[fresh(r, UPDATE_SUBJECTS.length, used, 'update')]!;
  const old = s.value(r);
  let next = s.value(r);
  while (next === old) next = s.value(r);
  const anchor = s.subject.split(' ')[0]!;
  return {
    id,
    type,
    position,
    text: pick(r, UPDATE)(s.subject, next),
    probes: [next, anchor],
    original: { text: pick(r, ORIGINAL)(s.subject, old), stale: [old, anchor] },
    carrier: 'user',
  };
}
