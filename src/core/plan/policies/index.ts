import type { KeepPolicy } from '../options';
import { autoPolicy } from './auto';
import { itemsPolicy } from './items';
import { ratioPolicy } from './ratio';
import { roundsPolicy } from './rounds';
import { tokensPolicy } from './tokens';
import { turnsPolicy } from './turns';
import type { Policy } from './types';

/** One implementation per keep policy. */
export const POLICIES: Record<KeepPolicy, Policy> = {
  auto: autoPolicy,
  turns: turnsPolicy,
  items: itemsPolicy,
  ratio: ratioPolicy,
  rounds: roundsPolicy,
  tokens: tokensPolicy,
};

export type { Policy, PolicyContext, PolicyDecision } from './types';
