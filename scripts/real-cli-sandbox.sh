#!/bin/sh
# Runs supervisor under `--sandbox bwrap` for ../shared/real-cli/e2e.sh (the real CLIs against
# loopback mock model servers), by hand:
#
#   SUPERVISOR=$PWD/scripts/real-cli-sandbox.sh SV_BINARY=$PWD/dist/supervisor-linux-x64 ./e2e.sh
#   SV_DENY=1 E2E_PASS_ENV="SV_DENY SV_BINARY" SUPERVISOR=... ./e2e.sh    # expect 0/4, each with a logged refusal
#   SV_WORKTREE=1 E2E_PASS_ENV=SV_WORKTREE SUPERVISOR=... ./e2e.sh        # in a worktree (checkout hidden), not in place
#
# e2e.sh calls `<this> run implementer ...`; this writes a role `boxed` into the CLI's HOME that
# extends implementer with the bwrap sandbox and runs that instead. The mock's loopback port is
# allowed (codex, cline: read from their config; claude, gemini: from their base URL variable)
# unless SV_DENY=1, when only an unrelated port is (adapter_hosts: false).
set -eu
mkdir -p "$HOME/.supervisor/roles"
ports=$(grep -ohE '127\.0\.0\.1:[0-9]+' "${CODEX_HOME:-/nonexistent}/config.toml" "$HOME/.cline/data/settings/providers.json" 2>/dev/null | sort -u || true)
if [ "${SV_DENY:-0}" = 1 ]; then
  sandbox='{ name: bwrap, adapter_hosts: false, allow: ["127.0.0.1:1"] }'
else
  list=""
  for p in $ports; do list="$list\"$p\", "; done
  sandbox="{ name: bwrap, allow: [${list}] }"
fi
printf 'extends: implementer\nsandbox: %s\n' "$sandbox" > "$HOME/.supervisor/roles/boxed.yaml"
shift 2
if [ "${SV_WORKTREE:-0}" = 1 ]; then
  for arg; do shift; [ "$arg" = --no-worktree ] || set -- "$@" "$arg"; done
fi
exec "${SV_BINARY:-$(dirname "$0")/../dist/supervisor-linux-x64}" run boxed "$@"
