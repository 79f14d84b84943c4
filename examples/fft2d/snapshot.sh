#!/bin/sh
# snapshot.sh PID — one snapshot of the machine for machine.awk, in clock
# ticks: all CPUs' busy, total and steal ticks (/proc/stat), the CPU time
# of shell PID and of its waited-for children (/proc/PID/stat), and the
# 1-minute load average.  Two snapshots around a study, its PID the
# study's shell, give the other processes' share while it measured.
awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9, $9 }' /proc/stat
sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 + $14 + $15 }'
cut -d ' ' -f 1 /proc/loadavg
