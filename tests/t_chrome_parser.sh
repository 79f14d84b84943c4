#!/bin/sh
# t_chrome_parser.sh — the Perfetto/Chrome JSON timeline as a real consumer
# reads it: Chrome DevTools' own trace parser (npm @paulirish/trace_engine,
# the engine of the Performance panel), installed by this step into the
# test's directory, loads "report --timeline --format perfetto" of the
# demo program.  The parser nests a thread's slices by comparing
# ts + dur with the next ts as doubles and drops a slice that overlaps its
# predecessor, so: every slice of every thread must reach the parser's tree
# (none dropped, none nested under another), and each thread's time per
# category, summed from the tree, must equal report --per-thread's to the
# nanosecond.  SKIP 77 with the reason when node or npm is missing or npm
# cannot fetch the package (no network).
SUB=report
. tests/lib.sh
DEMO=build/examples/demo
need_built t_chrome_parser "$DEMO" examples
command -v node >/dev/null || skip t_chrome_parser "node is not installed (apt-get install nodejs npm)"
command -v npm >/dev/null || skip t_chrome_parser "npm is not installed (apt-get install npm)"

# The package, as the step that needs it, at the version whose API this
# test uses (the package says its API is not stable; LC_TRACE_ENGINE picks
# another); npm's cache keeps later runs off the network.
PKG=@paulirish/trace_engine@${LC_TRACE_ENGINE:-0.0.65}
mkdir -p "$tmp/npm"
if ! (cd "$tmp/npm" && timeout 180 npm install --no-audit --no-fund --no-save --loglevel=error \
	--prefer-offline --fetch-retries=1 --fetch-timeout=30000 "$PKG") >"$tmp/npm.log" 2>&1; then
	why=$(grep -E '^npm (ERR!|error) ' "$tmp/npm.log" | grep -v 'complete log' | head -n 2 |
		sed 's/^npm [^ ]* //' | tr '\n' ' ')
	skip t_chrome_parser "npm install $PKG failed: ${why:-timeout after 180 s}"
fi

"$LC" record -q -o "$tmp/d.data" -- "$DEMO" >"$tmp/rec.out" 2>&1 ||
	{ cat "$tmp/rec.out"; echo "t_chrome_parser: record failed"; exit 1; }
"$LC" report -f "$tmp/d.data" --timeline --format perfetto >"$tmp/trace.json" 2>"$tmp/err"
"$LC" report -f "$tmp/d.data" --per-thread --format csv >"$tmp/pt.csv" 2>>"$tmp/err"

cat >"$tmp/npm/check.mjs" <<'JS'
import fs from 'node:fs';
import * as Trace from '@paulirish/trace_engine';
// the engine measures layout boxes with DOMRect, which node lacks
globalThis.DOMRect ??= class { constructor(x = 0, y = 0, w = 0, h = 0) {
	this.x = x; this.y = y; this.width = w; this.height = h; } };
const [trace, ptcsv] = process.argv.slice(2);
const json = JSON.parse(fs.readFileSync(trace, 'utf8'));
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(json.traceEvents);
const R = model.parsedTrace().data.Renderer;
const bad = [];
const written = new Map();
for (const e of json.traceEvents)
	if (e.ph === 'X') written.set(`${e.pid}/${e.tid}`, (written.get(`${e.pid}/${e.tid}`) ?? 0) + 1);
// per thread: the slices in the parser's tree and their time per category
const got = new Map();
let nslices = 0;
for (const [pid, p] of R.processes)
	for (const [tid, t] of p.threads) {
		const want = written.get(`${pid}/${tid}`) ?? 0;
		const sum = {};
		let roots = 0;
		for (const node of t.tree.roots) {
			roots++;
			const e = node.entry;
			sum[e.cat] = (sum[e.cat] ?? 0) + e.dur;
		}
		nslices += roots;
		if (roots !== want)
			bad.push(`thread ${pid}/${tid}: ${want} slices written, ${roots} in the parser's tree ` +
				 `(${t.entries.length} entries)`);
		got.set(`${pid}/${tid}`, sum);
		written.delete(`${pid}/${tid}`);
	}
for (const k of written.keys()) bad.push(`track ${k}: not in the parser's threads`);
// report --per-thread --format csv: seconds with 9 decimals (ns)
const rows = fs.readFileSync(ptcsv, 'utf8').split('\n').map(l => l.split(','));
const h = rows.findIndex(r => r[0] === 'thread');
const keys = rows[h].slice(3, -1);
let nthreads = 0;
for (const r of rows.slice(h + 1)) {
	if (!/^\d+$/.test(r[0])) continue;
	nthreads++;
	const sum = got.get(`${r[1]}/${r[2]}`) ?? {};
	keys.forEach((k, i) => {
		const v = r[3 + i];
		const want = v === 'na' ? 0 : Math.round(Number(v) * 1e9);
		const have = Math.round((sum[k] ?? 0) * 1000);	// us -> ns
		if (have !== want) bad.push(`thread ${r[0]} ${k}: parser ${have} ns, report ${want} ns`);
	});
}
if (nthreads < 4) bad.push(`${nthreads} threads in the report, want 4`);
console.log(`${nthreads} threads, ${nslices} slices in the parser's trees`);
for (const b of bad.slice(0, 20)) console.log('  ' + b);
process.exit(bad.length ? 1 : 0);
JS
(cd "$tmp/npm" && node check.mjs "$tmp/trace.json" "$tmp/pt.csv") >"$tmp/js" 2>&1
verdict "Chrome's trace parser keeps every slice; per-thread totals equal the report's to the ns" $? "$tmp/js"
finish
