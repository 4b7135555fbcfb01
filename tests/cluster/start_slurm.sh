#!/usr/bin/env bash
# Start a real single-node SLURM cluster on this host for the cluster tests.
#
# Installs Debian's slurm-wlm and munge with apt when they are missing, writes a slurm.conf for
# this host (one node with `nproc` CPUs and its memory, one partition, select/cons_tres,
# proctrack/linuxproc, no accounting), starts munged, slurmctld and slurmd, and waits until
# `sinfo` shows the node idle. Idempotent: a running, idle cluster is left as it is.
# Needs root (apt, daemons). Prints the partition name on success; exit 1 with a reason otherwise.
set -euo pipefail

PARTITION=${SLURM_TEST_PARTITION:-debug}
CONF_DIR=/etc/slurm
LOG_DIR=/var/log/slurm
SPOOL=/var/spool

say() { echo "start_slurm: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
  say "needs root (apt-get, munged, slurmctld, slurmd)"; exit 1
fi

node_idle() { pgrep -x slurmd >/dev/null && pgrep -x slurmctld >/dev/null && sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)$'; }

if command -v sinfo >/dev/null 2>&1 && node_idle; then
  echo "$PARTITION"; exit 0
fi

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  say "installing slurm-wlm and munge with apt"
  export DEBIAN_FRONTEND=noninteractive
  # one apt at a time across the test workers (tests/workflow_runner.py takes the same lock),
  # and wait for any other apt run on the machine rather than failing on dpkg's lock
  (
    flock 9
    apt-get -o DPkg::Lock::Timeout=1200 update -qq >/dev/null
    apt-get -o DPkg::Lock::Timeout=1200 install -y -qq slurm-wlm munge >/dev/null
  ) 9>/tmp/dpbandits-apt.lock
fi

host=$(hostname -s)
cpus=$(nproc)
# RealMemory: a little below the total, so that slurmd never reports less than configured.
mem_mb=$(awk '/MemTotal/ {printf "%d", $2 / 1024 * 0.9}' /proc/meminfo)

mkdir -p "$CONF_DIR" "$LOG_DIR" "$SPOOL/slurmctld" "$SPOOL/slurmd" /run/munge /var/lib/munge /var/log/munge
cat > "$CONF_DIR/slurm.conf" <<CONF
# Written by tests/cluster/start_slurm.sh: a single-node test cluster on $host.
ClusterName=dpbandits-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=$SPOOL/slurmd
StateSaveLocation=$SPOOL/slurmctld
SlurmctldLogFile=$LOG_DIR/slurmctld.log
SlurmdLogFile=$LOG_DIR/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=10
Waittime=0
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=$PARTITION Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# No cgroup.conf: slurm 22.05 has no "disabled" cgroup plugin, and with proctrack/linuxproc and
# task/none slurmd only loads the default cgroup plugin without using it.
rm -f "$CONF_DIR/cgroup.conf"

# munge: a key owned by the munge user, then the daemon.
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
chmod 0700 /etc/munge /var/lib/munge /var/log/munge
chmod 0400 /etc/munge/munge.key
chmod 0755 /run/munge
if ! pgrep -x munged >/dev/null; then
  runuser -u munge -- /usr/sbin/munged
fi
for _ in $(seq 50); do munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.2; done
munge -n </dev/null | unmunge >/dev/null || { say "munged does not answer"; exit 1; }

pgrep -x slurmctld >/dev/null || /usr/sbin/slurmctld || { say "slurmctld failed"; tail -n 20 "$LOG_DIR/slurmctld.log" >&2; exit 1; }
pgrep -x slurmd >/dev/null || /usr/sbin/slurmd || { say "slurmd failed"; tail -n 20 "$LOG_DIR/slurmd.log" >&2; exit 1; }

for _ in $(seq 120); do
  if node_idle; then echo "$PARTITION"; exit 0; fi
  # A node left DOWN by an earlier run is brought back.
  scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
  sleep 0.5
done
say "the node did not become idle within 60 s:"
sinfo -N -l >&2 || true
tail -n 20 "$LOG_DIR/slurmctld.log" "$LOG_DIR/slurmd.log" >&2 || true
exit 1
