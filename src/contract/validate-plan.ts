/**
 * The check of the `plan` settings against their schema (`schemas/plan-settings.ts`), and the type it gives.
 */
import type { CompactionOptions } from '../core/plan/options';
import { parsed } from './schemas/problem';
import { planSettingsSchema, TOP_LEVEL_PLAN_KEYS } from './schemas/plan-settings';

export { show } from './show-value';

/** The planning options a conversation may set beyond budget, trigger and policy. */
export type PlanSettings = Omit<CompactionOptions, 'budget' | 'triggerRatio' | 'policy'>;

/**
 * Checks a `plan` settings object.
 * @returns a copy holding only the options set (selector lists copied).
 * @throws Error (the caller wraps it as a settings error) naming the bad field.
 */
export function checkPlanSettings(plan: unknown): PlanSettings {
  if (typeof plan === 'object' && plan !== null) {
    // Named before the schema's unknown-key refusal, which would only suggest a near miss.
    const misplaced = TOP_LEVEL_PLAN_KEYS.find((key) => Object.hasOwn(plan, key));
    if (misplaced) throw new Error(`plan.${misplaced}: set '${misplaced}' at the top level of the settings`);
  }
  const given = parsed(planSettingsSchema, plan, '', (message) => new Error(message), 'plan');
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    out[key] = typeof value === 'object' ? copySelector(value) : value;
  }
  return out;
}

function copySelector(selector: object): object {
  return Object.fromEntries(
    Object.entries(selector)
      .filter(([, list]) => list !== undefined)
      .map(([key, list]) => [key, [...(list as unknown[])]])
  );
}
