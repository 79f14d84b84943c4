/*
 * report_outputs.h — the cases of test_report.c's test_outputs: a run of
 * report on one of the profiles test_report.c writes, and what its output
 * must and must not hold.  Included by test_report.c alone, after it
 * defines struct output and LINES, and the profiles' paths.
 */
/* The sample (prof_sample.h) and the minor-2 profiles (v2_write) through
 * report's views and formats. */
/* The sample's -l line after p: its categories, CPUs, rt and tt. */
#define SAMPLE_LINE "li=0.015 ip=0.03 sl=0.004 cl=0 rc=na ml=na bl=0 wc=0.002 cpus=2 rt=0.029 tt=0.08\n"

static const struct output outputs[] = {
	/* the table, its notes, the command */
	{ "-f '%s'", sample,
	  .starts = LC_STRS("** processors: 4 (LC_TEAM)", "** wall time: 0.020000 s",
			    "** note: 1 LC_TASK_WASTED", "** note: 2 invalid"),
	  .lines = LINES({ "Load Imbalance ", "0.015000", "18.75%" },
			 { "  of which queue empty", "0.001000", "1.25%" },
			 { "Insuff Parallelism ", "0.030000", "37.50%" },
			 { "Synchronization Loss ", "0.004000", "5.00%" },
			 { "Communication Loss ", "0.000000", "0.00%" },
			 { "Resource Contention ", " na ", "(no hardware PMU)" },
			 { "Memory Loss ", " na ", "(no hardware PMU)" },
			 { "Braking Loss ", "0.000000", NULL },
			 { "Wasted Computation ", "0.002000", "2.50%" },
			 { "Total Time ", "0.080000", "100.00%" },
			 { "Remaining Time ", "0.029000", "36.25%" }),
	  .has = LC_STRS("./demo 4") },
	/* -l: one line, the note's words first; a word without '=' is the FILE */
	{ "-l 'n=1024 d=32' '%s'", sample, .exact = "n=1024 d=32 p=4 " SAMPLE_LINE },
	{ "-l '%s'", sample, .exact = "p=4 " SAMPLE_LINE },
	/* -l after -f, and of one tag */
	{ "-f '%s' -l n=8", sample, .starts = LC_STRS("n=8 p=4 li=") },
	{ "-f '%s' -l -t 7", sample,
	  .exact = "p=4 li=0.005 ip=0.006 sl=0.003 cl=0 rc=na ml=na bl=0 wc=0.002 cpus=2 rt=0.012 "
		   "tt=0.028\n" },
	/* a note naming a key of the line is merged when it agrees; cpus= only
	 * when the profile recorded it: a file of an older sampler has no CPU
	 * count */
	{ "-f '%s' -l 'p=4 n=8'", sample, .exact = "p=4 n=8 " SAMPLE_LINE },
	{ "-f '%s' -l 'n=8 p=4.0 cpus=2 rc=na rt=0.029'", sample,
	  .exact = "n=8 p=4.0 cpus=2 rc=na rt=0.029 li=0.015 ip=0.03 sl=0.004 cl=0 ml=na bl=0 "
		   "wc=0.002 tt=0.08\n" },
	{ "-f '%s' -l 'n=1'", v2old, .lacks = LC_STRS("cpus=") },
	/* -t: one tag's table */
	{ "-f '%s' -t 7", sample,
	  .starts = LC_STRS("** fragment tag 7"),
	  .lines = LINES({ "Load Imbalance ", "0.005000", "17.86%" },
			 { "Insuff Parallelism ", "0.006000", NULL },
			 { "Wasted Computation ", "0.002000", NULL },
			 { "Total Time ", "0.028000", "100.00%" },
			 { "Remaining Time ", "0.012000", NULL }) },
	{ "-f '%s' -t -3", sample, .lines = LINES({ "Insuff Parallelism ", "0.024000", "75.00%" },
			 { "Total Time ", "0.032000", NULL }) },
	{ "-f '%s' --per-thread", sample,
	  .lines = LINES({ "     100      100", "0.004000", "0.016000" },
			 { "     100      101", "0.002000", "0.008000" },
			 { "     100      102", "0.005000", "0.010000" },
			 { "(empty slots)", "0.010000   0.030000", "0.040000" }) },
	{ "-f '%s' --timeline", sample,
	  .lines = LINES({ "      0   0.000000   0.010000", "0.375", "0.475" },
			 { "      1   0.010000   0.010000", "0.750", "0.250" }) },
	{ "-f '%s' --format csv --per-thread --timeline", sample,
	  .starts = LC_STRS("key,name,seconds,percent,available,reason", "p,processors,4,",
			    "li,Load Imbalance,0.015000000,18.7500,1,",
			    "rc,Resource Contention,,,0,no hardware PMU",
			    "rt,Remaining Time,0.029000000,36.2500,1,",
			    "tt,Total Time,0.080000000,100.0000,1,",
			    "thread,pid,tid,li,ip,sl,cl,rc,ml,bl,wc,rt,total",
			    "empty,,,0.010000000,0.030000000,", "window,start,wall,",
			    "1,0.010000000,0.010000000,0.000000000,0.030000000"),
	  .lines = LINES({ "1,100,101,", ",0.002000000,0.008000000,0.010000000", NULL }) },
	{ "-f '%s' --format json --per-thread --timeline", sample,
	  .has = LC_STRS("\"procs\": 4,", "\"procs_from\": \"LC_TEAM\"", "\"wall\": 0.020000000",
			 "\"total\": 0.080000000", "\"available\": false, \"reason\": \"no hardware PMU\"",
			 "\"per_thread\": [", "\"empty_slots\": {\"li\": 0.010000000, \"ip\": 0.030000000",
			 "\"timeline\": [", "\"cut\": null") },
	{ "-f '%s' --source trace", sample,
	  .starts = LC_STRS("** source: trace mode"),
	  .lines = LINES({ "Synchronization Loss ", "0.005000", "12.50%" }) },
	/* how counter- and scheduler-derived categories were measured, once
	 * each under the table; the end block's say on what was measured */
	{ "-f '%s'", v2,
	  .starts = LC_STRS("** Resource Contention: BUSY time runnable but off CPU, per tick "
			    "(run queue from context-switch records)",
			    "** Memory Loss: busy time x stall cycles / cycles"),
	  .lines = LINES({ "Communication Loss ", " na ", "(no miss counter)" },
			 { "Resource Contention ", "0.002000", "2.50%" }),
	  .lacks = LC_STRS("** Communication Loss:", "** Load Imbalance:") },
	{ "-f '%s' --format csv", v2,
	  .starts = LC_STRS("cl,Communication Loss,,,0,no miss counter,,\n"),
	  .lines = LINES({ "rc,Resource Contention,0.002000000,2.5000,1,,",
			   "run queue from context-switch", NULL }) },
	{ "-f '%s' --format json", v2,
	  .has = LC_STRS("\"method\": \"busy time x stall cycles / cycles\"}",
			 "\"sched_source\": \"context-switch records\"") },
	/* older files have no methods */
	{ "-f '%s'", sample, .lacks = LC_STRS("** Resource Contention:") },
	/* the binomial standard error of each sampled category: N = 200 ticks
	 * x 4 slots; LI: f = 15/80, 0.08 s x sqrt(f(1-f)/800) */
	{ "-f '%s'", sample, .lines = LINES({ "Load Imbalance ", "18.75%  \u00b10.001104", NULL },
			 { "  of which queue empty", "\u00b10.000314", NULL },
			 { "Remaining Time ", "\u00b10.001360", NULL },
			 { "** \u00b1: one standard error of the tick sampling", "800 slot observations", NULL }) },
	/* a tag holds its share of the ticks: 800 x 28/80 */
	{ "-f '%s' -t 7", sample, .lines = LINES({ "** \u00b1:", "280 slot observations", NULL }) },
	{ "-f '%s' --format csv", sample,
	  .starts = LC_STRS("key,name,seconds,percent,available,reason,se,method",
			    "li,Load Imbalance,0.015000000,18.7500,1,,0.001103970,\n",
			    "rc,Resource Contention,,,0,no hardware PMU,,\n") },
	{ "-f '%s' --format json", sample,
	  .has = LC_STRS("\"observations\": 800,", "\"se\": 0.001103970", "\"stalled\": false") },
	/* v2: RC, f = 2/80 over 800 observations */
	{ "-f '%s'", v2, .lines = LINES({ "Resource Contention ", "\u00b10.000442", NULL }) },
	/* the exact trace has no sampling error */
	{ "-f '%s' --source trace", sample, .lacks = LC_STRS("\u00b1") },
	{ "-f '%s' --source trace --format json", sample,
	  .has = LC_STRS("\"observations\": null", "\"se\": null") },
	/* a stalled sampler: the same numbers in JSON as on stderr */
	{ "-f '%s' --format json", v2stall,
	  .has = LC_STRS("\"sampler\": {\"ticks\": 151, \"max_gap_s\": 0.025000000, "
			 "\"max_gap_at_s\": 0.008000000, \"missed_ticks\": 249, "
			 "\"estimated\": false, \"stalled\": true, \"cpu_s\": 0.004000000, "
			 "\"shared_cpu\": 1, \"sched_source\": \"context-switch records\", "
			 "\"ncpus\": 2}") },
	{ "-f '%s' --format json", v2old,
	  .has = LC_STRS("\"missed_ticks\": 248, \"estimated\": true, \"stalled\": true, "
			 "\"cpu_s\": null, \"shared_cpu\": null, \"sched_source\": null, "
			 "\"ncpus\": null}") },
	/* the sampler's CPU time beside the wall time, and a CPU it shared */
	{ "-f '%s'", sample,
	  .starts = LC_STRS("** wall time: 0.020000 s (Total Time / 4); sampler CPU 0.007 s "
			    "(35.0 % of the run's 0.020 s)\n"),
	  .lacks = LC_STRS("shared CPU") },
	{ "-f '%s'", v2,
	  .starts = LC_STRS("** wall time: 0.040000 s (Total Time / 2); sampler CPU 0.004 s "
			    "(10.0 % of the run's 0.040 s)\n",
			    "** note: the sampler shared CPU 1 with the program") },
	{ "-f '%s'", v2old,
	  .starts = LC_STRS("** wall time: 0.040000 s (Total Time / 2)\n"),
	  .lacks = LC_STRS("shared CPU") },
	/* --counters in text, CSV and JSON */
	{ "-f '%s' --counters", v2,
	  .starts = LC_STRS("cycles                       cycles                             4000\n",
			    "instructions                 instructions                       3000\n",
			    "LLC-misses                   misses                               30\n",
			    "stalled-cycles-backend       stall cycles                        400\n",
			    "** IPC 0.750 (instructions / cycles)",
			    "** 10.000 misses per 1000 instructions", "** counters per thread",
			    "** counters per fragment tag"),
	  .lines = LINES({ "     200      200", " 1000 ", "2.000     5.000" },
			 { "     200      201", " 3000 ", "0.333    20.000" },
			 { "               5 ", " 1000 ", " 2.000" }) },
	{ "-f '%s' --counters -t 5", v2,
	  .starts = LC_STRS("** counters while fragment tag 5 was open",
			    "cycles                       cycles                             1000\n",
			    "** IPC 2.000"),
	  .lacks = LC_STRS("per thread") },
	{ "-f '%s' --counters --format csv", v2,
	  .starts = LC_STRS("event,role,total\ncycles,cycles,4000\n", "ipc,derived,0.750000\n",
			    "mpki,derived,10.000000\n",
			    "thread,pid,tid,cycles,instructions,LLC-misses,stalled-cycles-backend,ipc,mpki\n",
			    "0,200,200,1000,2000,10,100,2.000000,5.000000\n", "tag,cycles,",
			    "5,1000,2000,10,100,2.000000,5.000000\n") },
	{ "-f '%s' --counters --format json", v2,
	  .has = LC_STRS("\"counters\": {\"recorded\": true",
			 "{\"name\": \"cycles\", \"role\": \"cycles\", \"total\": 4000}") },
	/* none recorded: said plainly in every format */
	{ "-f '%s' --counters", sample, .starts = LC_STRS("** counters: no counters recorded") },
	{ "-f '%s' --counters --format csv", sample, .starts = LC_STRS("no counters recorded") },
	{ "-f '%s' --counters --format json", sample,
	  .has = LC_STRS("\"counters\": {\"recorded\": false, \"note\": \"no counters recorded\"}") },
	/* the measured methods in -l */
	{ "-f '%s' -l", v2,
	  .exact = "p=2 li=0 ip=0 sl=0.008 cl=na rc=0.002 ml=0.002 bl=0 wc=0 cpus=2 rt=0.068 "
		   "tt=0.08\n" },
};
