#!/usr/bin/env node
// MCP tool call overhead: the same `run reviewer` (a fake claude that answers at once, no
// sandbox) as a command line run of the built binary and as a `run` tool call to one
// `supervisor mcp` server (the SDK's stdio client, the server started once, as an agent keeps
// it). Prints each median and the call's overhead over the command line run: the median of
// paired differences (negative: the call is faster, as it starts no process).
//
//   node scripts/bench/mcp.mjs [--runs 10] [--binary dist/supervisor-<host>]
//
// Target (issue 30): overhead at most 30 ms. Exits 1 when missed, 2 when it cannot run; not
// part of npm test (timing is noisy).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { benchArgs, instantReviewer, median } from './_instant-reviewer.mjs';

const TARGET_MS = 30;
const values = benchArgs('mcp', 10);
const { runs } = values;

const { scratch, repo, env } = instantReviewer('sv-bench-mcp-');

const cliArgs = ['run', 'reviewer', '--cli', 'claude', '--task', 'Review math.js', '--target', 'math.js', '--retries', '0', '--sandbox', 'none', '--json'];
const toolArgs = { role: 'reviewer', cli: 'claude', task: 'Review math.js', targets: ['math.js'], sandbox: 'none' };

function cliOnce() {
  const start = process.hrtime.bigint();
  const result = spawnSync(values.binary, cliArgs, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`run exited ${result.status}: ${result.stderr}${result.stdout}`);
  return ms;
}

async function callOnce(client) {
  const start = process.hrtime.bigint();
  const result = await client.callTool({ name: 'run', arguments: toolArgs });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.isError) throw new Error(`run tool failed: ${JSON.stringify(result.content)}`);
  return ms;
}


const transport = new StdioClientTransport({ command: values.binary, args: ['mcp'], cwd: repo, env, stderr: 'ignore' });
const client = new Client({ name: 'supervisor-bench', version: '1.0.0' });
const cli = [];
const mcp = [];
try {
  await client.connect(transport);
  cliOnce();
  await callOnce(client); // warm both
  for (let i = 0; i < runs; i++) {
    if (i % 2) {
      mcp.push(await callOnce(client));
      cli.push(cliOnce());
    } else {
      cli.push(cliOnce());
      mcp.push(await callOnce(client));
    }
  }
} finally {
  await client.close().catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
}
const overhead = median(mcp.map((ms, i) => ms - cli[i]));
const ok = overhead <= TARGET_MS;
console.log(`run reviewer, command line (baseline)   min ${Math.min(...cli).toFixed(1).padStart(7)} ms   median ${median(cli).toFixed(1).padStart(7)} ms`);
console.log(`run tool call over MCP (server running)  min ${Math.min(...mcp).toFixed(1).padStart(7)} ms   median ${median(mcp).toFixed(1).padStart(7)} ms`);
console.log(`MCP overhead: median of paired differences ${overhead.toFixed(1)} ms (target <= ${TARGET_MS} ms) ${ok ? 'ok' : 'MISSED'}; load average ${loadavg()[0].toFixed(2)}`);
process.exit(ok ? 0 : 1);
