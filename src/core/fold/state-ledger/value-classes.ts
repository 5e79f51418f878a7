/**
 * Values of closed classes: a human language, a country, a part of the day, a time zone, a file format, an indentation,
 * a package manager, a programming language, a channel, a register. A class is its own slot: "reply in English" and
 * "switch to German from here on" state one setting whatever other words they share.
 */

/** A class value: its type (`class:<class>`) and the value as written, lower-cased. */
export interface ClassValue {
  type: string;
  value: string;
}

const words = (list: string): string => list.trim().split(/\s+/).join('|').replace(/_/g, ' ');

// Lower-cased alternatives per class; `_` stands for a space inside one value.
const CLASSES: Readonly<Record<string, string>> = {
  language: words(`english german french spanish italian portuguese dutch polish swedish norwegian danish finnish
    japanese chinese mandarin cantonese korean arabic hebrew hindi turkish russian ukrainian greek czech hungarian
    romanian vietnamese thai indonesian`),
  country: words(`portugal spain france germany italy croatia greece japan mexico canada ireland iceland norway sweden
    denmark finland netherlands belgium austria switzerland poland hungary turkey morocco egypt india thailand vietnam
    indonesia australia brazil argentina chile peru colombia kenya south_africa new_zealand scotland china singapore
    malta cyprus slovenia montenegro albania`),
  daypart: words('mornings? afternoons? evenings? overnight midday'),
  timezone: words(`utc gmt cet cest pst pdt est edt cdt mdt jst aest aedt pacific_time eastern_time central_time
    mountain_time berlin_time london_time paris_time tokyo_time sydney_time local_time`),
  format: words('csv tsv json jsonl ndjson parquet avro xml yaml markdown html pdf docx xlsx excel'),
  indent: words('tabs (?:two|four|eight|2|4|8)[\\s-]spaces'),
  'package-manager': words('npm pnpm yarn pip pipenv poetry conda'),
  'programming-language': words(`python bash zsh powershell golang rust java kotlin scala typescript javascript ruby php
    perl swift elixir haskell lua`),
  channel: words('e-?mail slack sms whatsapp discord telegram'),
  register: words('formal informal casual'),
};

// A class value counts as a setting where it is said as a mode, after a preposition or "use": "reply in English", "the
// output as CSV", "switch to pnpm", "indent with tabs"; as a modifier ("the Slack bot", "JSON keys", "02:30 UTC") it
// names something else.
const MODE = String.raw`(?<=\b(?:in|as|to|with|via|by|using|use|into|over)\s(?:the\s|a\s|an\s|plain\s)?)`;

/**
 * One pattern per class, read by the typed-value scan after its own patterns: a match is the class value, lower-cased,
 * a final s dropped ("mornings" and "morning" are one value).
 */
export const CLASS_PATTERNS: readonly { re: RegExp; read: (match: string) => ClassValue }[] = Object.entries(
  CLASSES
).map(([name, alternatives]) => ({
  // A word with a version after it is a numbered name ("Java 11"), not a class value.
  re: new RegExp(`${MODE}(?:${alternatives})(?![\\w@/-])(?!\\s?v?\\d)`, 'gi'),
  read: (match: string): ClassValue => ({ type: `class:${name}`, value: match.toLowerCase().replace(/s$/, '') }),
}));

/** @returns whether the type is a closed class (see {@link CLASS_PATTERNS}) */
export const isClass = (type: string): boolean => type.startsWith('class:');

/** @returns whether the class is a setting of its own, tied by no other word (see {@link OWN_SETTINGS}) */
export const isOwnSetting = (type: string): boolean => OWN_SETTINGS.has(type);

// How the agent writes and works, whatever it writes about: the language, register, time zone and indentation of what
// it writes, the languages and package manager it uses.
const OWN_SETTINGS: ReadonlySet<string> = new Set(
  ['language', 'register', 'timezone', 'indent', 'programming-language', 'package-manager'].map((c) => `class:${c}`)
);
