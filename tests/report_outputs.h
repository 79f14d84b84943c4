/*
 * report_outputs.h — the cases of test_report.c's test_outputs: a run of
 * report on one of the profiles test_report.c writes, and what its output
 * must and must not hold.  Included by test_report.c alone, after it
 * defines struct output and LINES, and the profiles' paths.
 */
/* The sample (prof_sample.h) and the minor-2 profiles (v2_write) through
 * report's views and formats. */
static const struct output outputs[] = {
	/* the table, its notes, the command */
	{ "-f '%s'", sample, LINES({ "** processors: 4 (LC_TEAM)", NULL, NULL },
		{ "Load Imbalance ", "0.015000", "18.75%" },
		{ "  of which queue empty", "0.001000", "1.25%" },
		{ "Insuff Parallelism ", "0.030000", "37.50%" },
		{ "Synchronization Loss ", "0.004000", "5.00%" },
		{ "Communication Loss ", "0.000000", "0.00%" },
		{ "Resource Contention ", " na ", "(no hardware PMU)" },
		{ "Memory Loss ", " na ", "(no hardware PMU)" }, { "Braking Loss ", "0.000000", NULL },
		{ "Wasted Computation ", "0.002000", "2.50%" },
		{ "Total Time ", "0.080000", "100.00%" },
		{ "Remaining Time ", "0.029000", "36.25%" },
		{ "** wall time: 0.020000 s", NULL, NULL }, { "** note: 1 LC_TASK_WASTED", NULL, NULL },
		{ "** note: 2 invalid", NULL, NULL }), LC_STRS("./demo 4"), NULL },
	/* -t: one tag's table */
	{ "-f '%s' -t 7", sample, LINES({ "** fragment tag 7", NULL, NULL },
		{ "Load Imbalance ", "0.005000", "17.86%" }, { "Insuff Parallelism ", "0.006000", NULL },
		{ "Wasted Computation ", "0.002000", NULL }, { "Total Time ", "0.028000", "100.00%" },
		{ "Remaining Time ", "0.012000", NULL }), NULL, NULL },
	{ "-f '%s' -t -3", sample, LINES({ "Insuff Parallelism ", "0.024000", "75.00%" },
		{ "Total Time ", "0.032000", NULL }), NULL, NULL },
	{ "-f '%s' --per-thread", sample, LINES({ "     100      100", "0.004000", "0.016000" },
		{ "     100      101", "0.002000", "0.008000" },
		{ "     100      102", "0.005000", "0.010000" },
		{ "(empty slots)", "0.010000   0.030000", "0.040000" }), NULL, NULL },
	{ "-f '%s' --timeline", sample, LINES({ "      0   0.000000   0.010000", "0.375", "0.475" },
		{ "      1   0.010000   0.010000", "0.750", "0.250" }), NULL, NULL },
	{ "-f '%s' --format csv --per-thread --timeline", sample,
	  LINES({ "key,name,seconds,percent,available,reason", NULL, NULL },
		{ "p,processors,4,", NULL, NULL },
		{ "li,Load Imbalance,0.015000000,18.7500,1,", NULL, NULL },
		{ "rc,Resource Contention,,,0,no hardware PMU", NULL, NULL },
		{ "rt,Remaining Time,0.029000000,36.2500,1,", NULL, NULL },
		{ "tt,Total Time,0.080000000,100.0000,1,", NULL, NULL },
		{ "thread,pid,tid,li,ip,sl,cl,rc,ml,bl,wc,rt,total", NULL, NULL },
		{ "1,100,101,", ",0.002000000,0.008000000,0.010000000", NULL },
		{ "empty,,,0.010000000,0.030000000,", NULL, NULL },
		{ "window,start,wall,", NULL, NULL },
		{ "1,0.010000000,0.010000000,0.000000000,0.030000000", NULL, NULL }), NULL, NULL },
	{ "-f '%s' --format json --per-thread --timeline", sample, NULL,
	  LC_STRS("\"procs\": 4,", "\"procs_from\": \"LC_TEAM\"", "\"wall\": 0.020000000",
	       "\"total\": 0.080000000", "\"available\": false, \"reason\": \"no hardware PMU\"",
	       "\"per_thread\": [", "\"empty_slots\": {\"li\": 0.010000000, \"ip\": 0.030000000",
	       "\"timeline\": [", "\"cut\": null"), NULL },
	{ "-f '%s' --source trace", sample, LINES({ "** source: trace mode", NULL, NULL },
		{ "Synchronization Loss ", "0.005000", "12.50%" }), NULL, NULL },
	/* how counter- and scheduler-derived categories were measured, once
	 * each under the table; the end block's say on what was measured */
	{ "-f '%s'", v2, LINES({ "** Resource Contention: BUSY time runnable but off CPU, per tick "
				 "(run queue from context-switch records)", NULL, NULL },
		{ "** Memory Loss: busy time x stall cycles / cycles", NULL, NULL },
		{ "Communication Loss ", " na ", "(no miss counter)" },
		{ "Resource Contention ", "0.002000", "2.50%" }),
	  NULL, LC_STRS("** Communication Loss:", "** Load Imbalance:") },
	{ "-f '%s' --format csv", v2,
	  LINES({ "rc,Resource Contention,0.002000000,2.5000,1,,", "run queue from context-switch",
		  NULL }, { "cl,Communication Loss,,,0,no miss counter,,\n", NULL, NULL }), NULL, NULL },
	{ "-f '%s' --format json", v2, NULL,
	  LC_STRS("\"method\": \"busy time x stall cycles / cycles\"}",
	       "\"sched_source\": \"context-switch records\""), NULL },
	/* older files have no methods */
	{ "-f '%s'", sample, NULL, NULL, LC_STRS("** Resource Contention:") },
	/* the binomial standard error of each sampled category: N = 200 ticks
	 * x 4 slots; LI: f = 15/80, 0.08 s x sqrt(f(1-f)/800) */
	{ "-f '%s'", sample, LINES({ "Load Imbalance ", "18.75%  \u00b10.001104", NULL },
		{ "  of which queue empty", "\u00b10.000314", NULL },
		{ "Remaining Time ", "\u00b10.001360", NULL },
		{ "** \u00b1: one standard error of the tick sampling", "800 slot observations", NULL }),
	  NULL, NULL },
	/* a tag holds its share of the ticks: 800 x 28/80 */
	{ "-f '%s' -t 7", sample, LINES({ "** \u00b1:", "280 slot observations", NULL }), NULL, NULL },
	{ "-f '%s' --format csv", sample,
	  LINES({ "key,name,seconds,percent,available,reason,se,method", NULL, NULL },
		{ "li,Load Imbalance,0.015000000,18.7500,1,,0.001103970,\n", NULL, NULL },
		{ "rc,Resource Contention,,,0,no hardware PMU,,\n", NULL, NULL }), NULL, NULL },
	{ "-f '%s' --format json", sample, NULL,
	  LC_STRS("\"observations\": 800,", "\"se\": 0.001103970", "\"stalled\": false"), NULL },
	/* v2: RC, f = 2/80 over 800 observations */
	{ "-f '%s'", v2, LINES({ "Resource Contention ", "\u00b10.000442", NULL }), NULL, NULL },
	/* the exact trace has no sampling error */
	{ "-f '%s' --source trace", sample, NULL, NULL, LC_STRS("\u00b1") },
	{ "-f '%s' --source trace --format json", sample, NULL,
	  LC_STRS("\"observations\": null", "\"se\": null"), NULL },
	/* a stalled sampler: the same numbers in JSON as on stderr */
	{ "-f '%s' --format json", v2stall, NULL,
	  LC_STRS("\"sampler\": {\"ticks\": 151, \"max_gap_s\": 0.025000000, "
	       "\"max_gap_at_s\": 0.008000000, \"missed_ticks\": 249, "
	       "\"estimated\": false, \"stalled\": true, \"cpu_s\": 0.004000000, "
	       "\"shared_cpu\": 1, \"sched_source\": \"context-switch records\", "
	       "\"ncpus\": 2}"), NULL },
	{ "-f '%s' --format json", v2old, NULL,
	  LC_STRS("\"missed_ticks\": 248, \"estimated\": true, \"stalled\": true, "
	       "\"cpu_s\": null, \"shared_cpu\": null, \"sched_source\": null, "
	       "\"ncpus\": null}"), NULL },
	/* the sampler's CPU time beside the wall time, and a CPU it shared */
	{ "-f '%s'", sample, LINES({ "** wall time: 0.020000 s (Total Time / 4); sampler CPU 0.007 s "
				     "(35.0 % of the run's 0.020 s)\n", NULL, NULL }),
	  NULL, LC_STRS("shared CPU") },
	{ "-f '%s'", v2, LINES({ "** wall time: 0.040000 s (Total Time / 2); sampler CPU 0.004 s "
				 "(10.0 % of the run's 0.040 s)\n", NULL, NULL },
		{ "** note: the sampler shared CPU 1 with the program", NULL, NULL }), NULL, NULL },
	{ "-f '%s'", v2old, LINES({ "** wall time: 0.040000 s (Total Time / 2)\n", NULL, NULL }),
	  NULL, LC_STRS("shared CPU") },
	/* --counters in text, CSV and JSON */
	{ "-f '%s' --counters", v2,
	  LINES({ "cycles                       cycles                             4000\n", NULL, NULL },
		{ "instructions                 instructions                       3000\n", NULL, NULL },
		{ "LLC-misses                   misses                               30\n", NULL, NULL },
		{ "stalled-cycles-backend       stall cycles                        400\n", NULL, NULL },
		{ "** IPC 0.750 (instructions / cycles)", NULL, NULL },
		{ "** 10.000 misses per 1000 instructions", NULL, NULL },
		{ "** counters per thread", NULL, NULL },
		{ "     200      200", " 1000 ", "2.000     5.000" },
		{ "     200      201", " 3000 ", "0.333    20.000" },
		{ "** counters per fragment tag", NULL, NULL }, { "               5 ", " 1000 ", " 2.000" }),
	  NULL, NULL },
	{ "-f '%s' --counters -t 5", v2,
	  LINES({ "** counters while fragment tag 5 was open", NULL, NULL },
		{ "cycles                       cycles                             1000\n", NULL, NULL },
		{ "** IPC 2.000", NULL, NULL }), NULL, LC_STRS("per thread") },
	{ "-f '%s' --counters --format csv", v2,
	  LINES({ "event,role,total\ncycles,cycles,4000\n", NULL, NULL },
		{ "ipc,derived,0.750000\n", NULL, NULL }, { "mpki,derived,10.000000\n", NULL, NULL },
		{ "thread,pid,tid,cycles,instructions,LLC-misses,stalled-cycles-backend,ipc,mpki\n",
		  NULL, NULL },
		{ "0,200,200,1000,2000,10,100,2.000000,5.000000\n", NULL, NULL },
		{ "tag,cycles,", NULL, NULL }, { "5,1000,2000,10,100,2.000000,5.000000\n", NULL, NULL }),
	  NULL, NULL },
	{ "-f '%s' --counters --format json", v2, NULL,
	  LC_STRS("\"counters\": {\"recorded\": true",
	       "{\"name\": \"cycles\", \"role\": \"cycles\", \"total\": 4000}"), NULL },
	/* none recorded: said plainly in every format */
	{ "-f '%s' --counters", sample, LINES({ "** counters: no counters recorded", NULL, NULL }),
	  NULL, NULL },
	{ "-f '%s' --counters --format csv", sample, LINES({ "no counters recorded", NULL, NULL }),
	  NULL, NULL },
	{ "-f '%s' --counters --format json", sample, NULL,
	  LC_STRS("\"counters\": {\"recorded\": false, \"note\": \"no counters recorded\"}"), NULL },
};
