/**
 * The attempts of one run: run one, ask the retry policy, add feedback to the prompt (stricter
 * instructions or a gate's output), back off, and go again; stop at a final answer, at the
 * policy's word, or when interrupted.
 */
import { runAttempt, type AttemptEnv, type AttemptOutcome } from './attempt.ts';
import { gateFeedback, stricterInstructions } from './feedback.ts';
import { knownCost, type AttemptMetrics } from './metrics.ts';
import { decideRetry, failureGroup, STOP_REASON_TEXT, type StopReason } from './retry-policy.ts';
import type { Failure } from '../plugin-api/contracts.ts';

export interface LoopOutcome {
  last: AttemptOutcome | null;
  failure: Failure | null;
  stop: StopReason | null;
  attempts: AttemptMetrics[];
}

export async function attemptLoop(env: AttemptEnv): Promise<LoopOutcome> {
  const { prepared, log } = env;
  const { settings, built } = prepared;
  const attempts: AttemptMetrics[] = [];
  let last: AttemptOutcome | null = null;
  let feedback = '';
  let answerRetries = 0;
  let consecutiveCli = 0;
  let costWarned = false;
  for (let n = 1; ; n++) {
    if (env.signal?.aborted) {
      const failure: Failure = { class: 'interrupted', detail: 'interrupted between attempts' };
      log.event('interrupted', { before_attempt: n });
      return { last, failure, stop: 'not_retryable', attempts };
    }
    const budget = settings.maxCostUsd === null ? undefined : Math.max(0, settings.maxCostUsd - knownCost(attempts));
    const prompt = built.prompt + feedback;
    if (feedback) log.write(`attempt-${n}.prompt.md`, prompt);
    last = await runAttempt(env, n, prompt, budget);
    attempts.push(last.metrics);
    if (settings.maxCostUsd !== null && last.metrics.ran && typeof last.metrics.metrics?.costUsd !== 'number' && !costWarned) {
      costWarned = true;
      env.notice(`${prepared.adapterName} reported no cost for attempt ${n}: the cost ceiling of $${settings.maxCostUsd} cannot count it`);
    }
    const failure = last.failure;
    if (!failure) return { last, failure: null, stop: null, attempts };
    if (failure.class === 'interrupted') log.event('interrupted', { attempt: n });
    consecutiveCli = failureGroup(failure) === 'cli' ? consecutiveCli + 1 : 0;
    const decision = decideRetry(failure, {
      attempts: n,
      maxRetries: settings.maxRetries,
      answerRetries,
      consecutiveCliFailures: consecutiveCli,
      breakerThreshold: settings.breakerThreshold,
      backoffMs: settings.backoffMs,
      costUsd: knownCost(attempts),
      maxCostUsd: settings.maxCostUsd,
    });
    if (!decision.retry) {
      log.event('stopped', { attempt: n, reason: decision.reason, detail: STOP_REASON_TEXT[decision.reason], failure });
      if (decision.reason === 'cost_ceiling') env.notice(`cost ceiling of $${settings.maxCostUsd} reached after attempt ${n}: no more attempts`);
      return { last, failure, stop: decision.reason, attempts };
    }
    if (decision.mode === 'stricter') {
      answerRetries++;
      feedback = stricterInstructions(failure, n, prepared.formatText);
    } else if (decision.mode === 'gate_feedback' && last.gate) {
      feedback = gateFeedback(last.gate, n);
    }
    log.event('retry', { next_attempt: n + 1, mode: decision.mode, because: failure.class, delay_ms: decision.delayMs });
    await prepared.peers.sleep(decision.delayMs, env.signal);
  }
}
