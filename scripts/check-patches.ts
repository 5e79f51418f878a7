/**
 * The patch-id check run by `npm run lint`: every `patched()` / `deprecatePatch()` call under src/ must name, as a
 * string literal, an id of the registry in src/workflows/patches.ts (a literal, so the check can read it without
 * running the code). `node --require tsx/cjs scripts/check-patches.ts [folder]` exits 1 listing every other call.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { PATCHES, type PatchEntry } from '../src/workflows/patches';

/** The SDK functions that take a patch id. */
const PATCH_FUNCTIONS = new Set(['patched', 'deprecatePatch']);

/** @returns the name a call is made through: `patched(…)` and `wf.patched(…)` both give `patched`. */
function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/**
 * Finds the patch calls of one source file that the registry does not allow.
 * @param registered the ids of the registry.
 * @returns one message per bad call (`file:line: …`), in source order; empty when every call is registered.
 */
export function patchCallProblems(fileName: string, source: string, registered: ReadonlySet<string>): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true);
  const problems: string[] = [];
  const visit = (node: ts.Node): void => {
    const name = ts.isCallExpression(node) ? calleeName(node) : undefined;
    if (ts.isCallExpression(node) && name !== undefined && PATCH_FUNCTIONS.has(name)) {
      const at = `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      const arg = node.arguments[0];
      // The Compactor's room and the fold step it stands on run in the host's workflow.
      if (/(^|[/\\])(compactor[^/\\]*\.ts$|workflows[/\\](compactor|fold)[/\\])/.test(fileName)) {
        problems.push(`${at}: the Compactor runs in its host's workflow: version it through COMPACTOR_VERSION`);
      } else if (!arg || !ts.isStringLiteralLike(arg)) {
        problems.push(`${at}: ${name}() must name its patch id as a string literal`);
      } else if (!registered.has(arg.text)) {
        problems.push(`${at}: ${name}('${arg.text}') names a patch id missing from src/workflows/patches.ts`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return problems;
}

/** @returns the TypeScript files under `dir`, recursively, sorted. */
function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? typeScriptFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []
    )
    .sort();
}

/** @returns the problems of every file under `dir` against the registry's ids. */
export function checkPatchCalls(dir: string, registered: ReadonlySet<string>): string[] {
  return typeScriptFiles(dir).flatMap((f) =>
    patchCallProblems(relative(process.cwd(), f), readFileSync(f, 'utf8'), registered)
  );
}

/** @returns the registry's own problems: an id listed twice or not kebab-case, a `since` that is not a date. */
export function registryProblems(entries: readonly PatchEntry[]): string[] {
  const seen = new Set<string>();
  return entries.flatMap((e) => {
    const problems: string[] = [];
    if (seen.has(e.id)) problems.push(`patches.ts: '${e.id}' is listed twice`);
    seen.add(e.id);
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(e.id)) problems.push(`patches.ts: '${e.id}' is not a kebab-case id`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(e.since))
      problems.push(`patches.ts: '${e.id}' since '${e.since}' is not YYYY-MM-DD`);
    if (e.why.trim() === '' || e.retire.trim() === '') problems.push(`patches.ts: '${e.id}' needs a why and a retire`);
    return problems;
  });
}

if (require.main === module) {
  const dir = resolve(process.argv[2] ?? join(__dirname, '..', 'src'));
  const problems = [...registryProblems(PATCHES), ...checkPatchCalls(dir, new Set(PATCHES.map((p) => p.id)))];
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(
      `${problems.length} patch call(s) without a registered id (docs/development.md, "Replay compatibility")`
    );
    process.exit(1);
  }
}
