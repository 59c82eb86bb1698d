#!/usr/bin/env bash
# slurm-conf.sh STATE_DIR [NODES]: writes STATE_DIR/slurm.conf and STATE_DIR/gres.conf for NODES
# (default 64) emulated 8-GPU nodes on this host: one slurmd per node (`slurmd -N nNN`), all on
# localhost, each on its own port (17001 on). The GPUs are fake: Slurm drops a GPU without a File=
# ("Removing file-less GPU"), so gres.conf names 8 character devices made here like /dev/null. The
# scheduler is sched/backfill tuned as issue 15 item 14 says, priority is a fresh install's
# (priority/basic: FIFO by submission), and there is no accounting database: start and end times
# come from jobcomp/filetxt.
set -euo pipefail
dir="$(mkdir -p "$1" && cd "$1" && pwd)"
nodes="${2:-64}"
last="$(printf '%02d' "$nodes")"
mkdir -p "$dir/state" "$dir/spool" "$dir/log" "$dir/dev"
for i in $(seq 0 "$((nodes - 1))"); do mkdir -p "$dir/spool/n$(printf '%02d' $((i + 1)))"; done
for i in 0 1 2 3 4 5 6 7; do [ -e "$dir/dev/gpu$i" ] || mknod "$dir/dev/gpu$i" c 1 3; done
cat > "$dir/slurm.conf" <<CONF
ClusterName=squallbench
SlurmctldHost=localhost
SlurmctldPort=16817
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=error
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmdTimeout=600
SlurmctldTimeout=600
MessageTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=300
MaxJobCount=20000
SchedulerType=sched/backfill
SchedulerParameters=bf_continue,batch_sched_delay=0,bf_interval=5
PriorityType=priority/basic
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
GresTypes=gpu
NodeName=n[01-$last] NodeHostname=localhost NodeAddr=127.0.0.1 Port=17001-$((17000 + nodes)) CPUs=192 Gres=gpu:8 State=UNKNOWN
PartitionName=gpu Nodes=n[01-$last] Default=YES MaxTime=INFINITE State=UP
CONF
cat > "$dir/gres.conf" <<CONF
AutoDetect=off
Name=gpu File=$dir/dev/gpu[0-7]
CONF
echo "$dir/slurm.conf"
