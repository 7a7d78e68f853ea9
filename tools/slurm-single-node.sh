#!/usr/bin/env bash
# A one-node SLURM on this Debian machine (slurm-wlm, munge; run as root), then a small sweep
# through `ringsim run --slurm` and its submit script, checked byte for byte against
# `ringsim run --jobs 2`. Prints what it did; exit 0 when the CSVs are identical.
#   tools/slurm-single-node.sh [path/to/ringsim]   (default: build/ringsim)
set -euo pipefail
cd "$(dirname "$0")/.."
RINGSIM=$(realpath "${1:-build/ringsim}")
[ "$(id -u)" -eq 0 ] || { echo "slurm-single-node.sh: run as root (it installs and starts SLURM)" >&2; exit 2; }
[ -x "$RINGSIM" ] || { echo "slurm-single-node.sh: no ringsim at $RINGSIM (run tools/build.sh)" >&2; exit 2; }
for p in slurm-wlm munge; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ -n "${missing[*]:-}" ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# munge: a key, the daemon.
mkdir -p /etc/munge /var/log/munge /run/munge /var/lib/munge
[ -s /etc/munge/munge.key ] || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
chown -R munge:munge /etc/munge /var/log/munge /run/munge /var/lib/munge 2>/dev/null || true
chmod 400 /etc/munge/munge.key
pgrep -x munged >/dev/null || su -s /bin/sh munge -c /usr/sbin/munged 2>/dev/null || /usr/sbin/munged --force

# SLURM: this host as controller and only node, every CPU, root as the SLURM user.
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat >/etc/slurm/slurm.conf <<CONF
ClusterName=ringsim
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=ringsim Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
rm -f /etc/slurm/cgroup.conf  # slurm 22.05 has no "disabled" cgroup plugin; its default (v1) works here
pgrep -x slurmctld >/dev/null || slurmctld
pgrep -x slurmd >/dev/null || slurmd
for _ in $(seq 1 30); do sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mixed|alloc' && break; sleep 1; done
scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
echo "== SLURM up: $(sinfo -h -o '%P %D %T %c')"

# The sweep, twice: --jobs 2 and the SLURM array.
work=$(mktemp -d)
cp tests/data/sweep-small.json tests/data/ring6-homogeneous.xml "$work/"
"$RINGSIM" run "$work/sweep-small.json" --jobs 2 --out "$work/jobs2" 2>/dev/null
"$RINGSIM" run "$work/sweep-small.json" --out "$work/slurm-out" --slurm "$work/job"
merge_job=$("$work/job/submit.sh" | tail -1)
echo "== submitted; the merge is job $merge_job"
for _ in $(seq 1 600); do
  state=$(sacct -n -X -j "$merge_job" -o State 2>/dev/null | head -1 | tr -d ' ' || true)
  [ -z "$state" ] && state=$(squeue -h -j "$merge_job" -o %T 2>/dev/null || true)
  case "$state" in COMPLETED|FAILED|CANCELLED*|TIMEOUT) break ;; esac
  [ -z "$(squeue -h 2>/dev/null)" ] && [ -s "$work/slurm-out/runs.csv" ] && break
  sleep 1
done
echo "== array tasks: $(ls "$work"/job/logs/task-*.out 2>/dev/null | wc -l), results: $(ls "$work"/slurm-out/runs/*/result.json | wc -l)"
status=0
for f in runs.csv iterations.csv; do
  if cmp -s "$work/jobs2/$f" "$work/slurm-out/$f"; then echo "$f: identical to ringsim run --jobs 2"
  else echo "$f: DIFFERS from ringsim run --jobs 2"; status=1; fi
done
rm -rf "$work"
exit $status
