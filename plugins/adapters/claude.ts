/**
 * Claude Code: `claude -p --output-format json` with the prompt on stdin (no argument-length
 * limit). The envelope is a JSON object, not the raw markdown the seeds assumed; API errors come
 * as `subtype: "success"` with `is_error: true`.
 */
import { definePlugin, type CommandRequest, type CommandSpec } from '../../core/plugin-api/index.ts';
import { readClaudeEnvelope } from './_shared/claude-envelope.ts';
import { plainCommands } from './_shared/plain-commands.ts';

function positiveNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * Commands the model may run: one `--allowedTools "Bash(<cmd>:*)"` each (the command and any
 * arguments after it); "*" allows the Bash tool whole (the core allows it only in a sandbox).
 */
function allowedToolArgs(commands: readonly string[]): string[] {
  if (commands.includes('*')) return ['--allowedTools', 'Bash'];
  return plainCommands(commands).flatMap((command) => ['--allowedTools', `Bash(${command}:*)`]);
}

function claudeArgs(request: CommandRequest): string[] {
  const args = ['-p'];
  // stream-json needs --verbose, or claude exits 1.
  args.push(...(request.stream ? ['--output-format', 'stream-json', '--verbose'] : ['--output-format', 'json']));
  if (request.model) args.push('--model', request.model);
  if (request.outputSchema) args.push('--json-schema', JSON.stringify(request.outputSchema.schema));
  // The default permission mode refuses edits silently (permission_denials, exit 0).
  if (request.allowEdits) args.push('--permission-mode', 'acceptEdits');
  args.push(...allowedToolArgs(request.allowedCommands));
  const maxTurns = positiveNumber(request.config.max_turns);
  if (maxTurns !== undefined) args.push('--max-turns', String(Math.floor(maxTurns)));
  if (request.maxBudgetUsd !== undefined && request.maxBudgetUsd > 0) args.push('--max-budget-usd', String(request.maxBudgetUsd));
  return [...args, ...request.flags];
}

export default definePlugin({
  kind: 'adapter',
  name: 'claude',
  description: 'Claude Code (claude -p --output-format json; stream-json when streaming)',
  bin: 'claude',
  versionArgs: ['--version'],
  instructions: 'prompt',
  acceptsOutputSchema: true,
  acceptsBudget: true,
  commandPermissions: 'list',
  quietEnv: {
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  },
  // For sandboxes: its model API (or ANTHROPIC_BASE_URL's host), and its settings and login.
  access: {
    hosts: ['api.anthropic.com:443'],
    baseUrlEnv: ['ANTHROPIC_BASE_URL'],
    config: [{ path: '~/.claude.json' }, { path: '~/.claude/settings.json' }, { path: '~/.claude/.credentials.json' }],
    // Its key, token, model and settings variables; Bedrock or Vertex credentials are the user's to pass (--pass-env).
    env: ['ANTHROPIC_*', 'CLAUDE_*', 'DISABLE_*', 'MAX_THINKING_TOKENS', 'CLOUD_ML_REGION', 'NODE_EXTRA_CA_CERTS'],
    secrets: ['ANTHROPIC_API_KEY'],
  },
  command(request): CommandSpec {
    return { args: claudeArgs(request), stdin: request.prompt };
  },
  extract(result, request, ctx) {
    const { permissionDenials, ...extraction } = readClaudeEnvelope(result);
    if (permissionDenials > 0) {
      const hint = request.allowEdits ? '' : ' (this role does not allow edits)';
      ctx.notice(`claude refused ${permissionDenials} tool call(s) for want of permission${hint}`);
    }
    return extraction;
  },
});
