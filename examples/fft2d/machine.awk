# machine.awk — the machine's load while a study measured, from two
# snapshots of snapshot.sh (before, after), each: busy, total and steal
# clock ticks of all CPUs (/proc/stat), the study's own ticks (the shell and
# its waited-for children), the 1-minute load average.  Other processes'
# share is busy less the study's, of the total: whole seconds of ticks over
# the study's minutes, so /proc/stat's 10 ms ticks do not matter here as
# they do for one short run.
{
	busy = $6 - $1
	total = $7 - $2
	steal = $8 - $3
	own = $9 - $4
	other = busy > own ? busy - own : 0
	if (total <= 0) {
		print "the machine: not measured (no clock ticks passed)"
		exit
	}
	printf "the machine while measuring: %.1f s on %d CPUs; other processes %.1f %% and steal %.1f %% of its CPU time (%.2f CPUs), the study %.1f %%; load average %s at the start, %s at the end\n",
		total / cpus / hz, cpus, 100 * other / total, 100 * steal / total,
		(other + steal) / total * cpus, 100 * own / total, $5, $10
}
