/** Errors of context packing. Codes are API: tests and scripts match on them. */
import { SupervisorError } from '../errors.ts';

export const contextErrors = {
  /** Absolute paths, `..` out of the repository, symlinks that resolve outside it. */
  pathOutsideRepo: (path: string, why: string) =>
    new SupervisorError('PATH_OUTSIDE_REPO', `Refusing ${JSON.stringify(path)}: ${why}`, {
      details: { path, why },
      hint: 'Context paths and patterns must be relative to the repository root and stay inside it.',
    }),
  /** Empty paths, NUL bytes: names no file system accepts. */
  pathInvalid: (path: string, why: string) =>
    new SupervisorError('PATH_INVALID', `Invalid path ${JSON.stringify(path)}: ${why}`, { details: { path, why } }),
  tokenizerUnknown: (name: string) =>
    new SupervisorError('TOKENIZER_UNKNOWN', `Unknown tokenizer "${name}"`, { details: { name }, hint: 'Use "chars" (4 chars ≈ 1 token) or "o200k".' }),
  tokenizerNotLoaded: (name: string) =>
    new SupervisorError('TOKENIZER_NOT_LOADED', `Tokenizer "${name}" is not loaded yet`, {
      details: { name },
      hint: 'await loadTokenizer(name) (core/context/tokens.ts) before counting synchronously.',
    }),
  budgetInvalid: (value: unknown) =>
    new SupervisorError('BUDGET_INVALID', `Token budget must be a positive whole number, got ${typeof value === 'number' ? String(value) : JSON.stringify(value)}`, {
      details: { value },
    }),
  packerLoop: (chain: string[]) =>
    new SupervisorError('PACKER_LOOP', `Packers call each other in a loop: ${chain.join(' → ')}`, { details: { chain } }),
};
