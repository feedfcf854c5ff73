#!/usr/bin/env bash
# Deploys the Pulumi program in the current folder against the local emulator of the
# command service, as one step of a CI job: start the emulator in the background, wait
# until it is ready, point a throwaway stack at it, `pulumi up`, check that a second
# preview shows no change, and stop the emulator (it saves its state on the way out).
#
# Needs: node/npx, pulumi, and this package installed in the project
# (npm install --save-dev pulumi-discord-commands).
# Settings (environment): STACK (default "emulator"), EMULATOR_STATE (where the
# emulator's final state is written, default: a temporary folder), EMULATOR (the command
# that starts it, default "npx discord-commands emulator").
set -euo pipefail

STACK="${STACK:-emulator}"
EMULATOR="${EMULATOR:-npx discord-commands emulator}"
work="$(mktemp -d)"
ready="$work/emulator.json"
state="${EMULATOR_STATE:-$work/emulator-state.json}"

# 1. Start the emulator in the background on a free port. --ready-file appears (written
#    whole, at once) when it listens; --state is written on every change and on SIGTERM.
$EMULATOR --port 0 --no-rate-limits --ready-file "$ready" --state "$state" &
emulator_pid=$!
stop_emulator() {
  kill -TERM "$emulator_pid" 2>/dev/null || true
  wait "$emulator_pid" 2>/dev/null || true
}
trap stop_emulator EXIT

# 2. Wait until it is ready (up to 60 s), failing early if it exits.
for _ in $(seq 1 600); do
  [ -s "$ready" ] && break
  kill -0 "$emulator_pid" 2>/dev/null || { echo "emulator exited early" >&2; exit 1; }
  sleep 0.1
done
[ -s "$ready" ] || { echo "emulator not ready after 60 s" >&2; exit 1; }
field() { node -p "JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'))[process.argv[2]]" "$ready" "$1"; }
url="$(field url)"
node -e "fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1))" "$url/__emulator/health"
echo "emulator ready at $url"

# 3. A throwaway stack that talks to the emulator (its token is the emulator's default).
pulumi stack select --create "$STACK" --non-interactive
pulumi config set --stack "$STACK" discord:apiUrl "$url"
pulumi config set --stack "$STACK" discord:applicationId "$(field applicationId)"
pulumi config set --stack "$STACK" --secret discord:botToken "$(field botToken)"

# 4. Deploy, then prove the deployment converged: a second preview changes nothing.
pulumi up --stack "$STACK" --yes --non-interactive
pulumi preview --stack "$STACK" --expect-no-changes --non-interactive

# 5. Stop the emulator (the EXIT trap), which writes its state file.
stop_emulator
trap - EXIT
echo "emulator stopped; its state is in $state"
