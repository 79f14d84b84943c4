#!/bin/sh
# Install the Debian packages a step of lostcycles needs, but only those whose
# header or tool is missing.  Runs apt-get non-interactively, waiting for
# the apt and dpkg locks while another install holds them (at most
# LC_APT_LOCK_WAIT seconds, default 600) and saying what it does; does
# nothing when all is there.
#   install-deps.sh build   what building the tool and running the demo needs
#   install-deps.sh check   that, plus what the tests need (cmocka, gnuplot,
#                           MPICH, clang with LLVM's OpenMP runtime and its
#                           libFuzzer and sanitizer runtimes, the OTF2
#                           library, otf2-print and its Python bindings
#                           for export --otf2: optional, a failure to
#                           install them is said and the step goes on)
#   install-deps.sh bench   build's, plus the peers "make bench" measures
#                           beside the tool (LIKWID, PAPI, perf)
#   install-deps.sh chromium  the headless browser of the HTML report's test
#                           (tests/t_html.sh: only that test needs it)
#   install-deps.sh slurm   a single-machine Slurm (slurmctld, slurmd, srun,
#                           munge) for tests/t_slurm.sh
set -eu

step=${1:-build}
case $step in
build|check|bench|chromium|slurm) ;;
*) echo "usage: install-deps.sh build|check|bench|chromium|slurm" >&2; exit 2 ;;
esac

missing=""
optional=""
need() {	# need PACKAGE FILE...: PACKAGE is missing when none of FILE exists
	pkg=$1; shift
	for f in "$@"; do
		[ -e "$f" ] && return 0
	done
	missing="$missing $pkg"
}
# want PACKAGE FILE...: as need, for a package the step can do without (its
# tests skip): one that cannot be installed is said, not an error
want() {
	_m=$missing
	need "$@"
	[ "$missing" = "$_m" ] && return 0
	missing=$_m
	optional="$optional $1"
}

multi=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
if [ "$step" = chromium ]; then
	need chromium /usr/bin/chromium
elif [ "$step" = slurm ]; then
	need munge        /usr/sbin/munged
	need slurmctld    /usr/sbin/slurmctld
	need slurmd       /usr/sbin/slurmd
	need slurm-client /usr/bin/srun
else
	need libpfm4-dev   /usr/include/perfmon/pfmlib_perf_event.h
	need liburcu-dev   /usr/include/urcu.h /usr/include/$multi/urcu.h
	need libgsl-dev    /usr/include/gsl/gsl_multifit.h
	need libjson-c-dev /usr/include/json-c/json.h
	need libelf-dev    /usr/include/gelf.h
	need libdw-dev     /usr/include/elfutils/libdw.h
	need make          /usr/bin/make
	need gcc           /usr/bin/gcc
	need binutils      /usr/bin/readelf
	if [ "$step" = check ]; then
		need libcmocka-dev /usr/include/cmocka.h
		need gnuplot-nox   /usr/bin/gnuplot
		need mpich         /usr/bin/mpiexec.hydra /usr/bin/mpiexec
		need libmpich-dev  /usr/include/$multi/mpich/mpi.h /usr/include/mpich/mpi.h
		need gfortran      /usr/bin/gfortran
		need zsh           /usr/bin/zsh	# t_completion: zsh's completion
		need python3       /usr/bin/python3	# tests that read JSON, check-comments.py
		need clang         /usr/bin/clang
		need libomp-dev    /usr/lib/llvm-*/lib/clang/*/include/omp-tools.h
		# libFuzzer and the sanitizers' runtimes (t_fuzz.sh, make fuzz,
		# SAN=): only recommended by clang, so asked for by name
		need libclang-rt-dev /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a
		# export --otf2 (optional at build time) and its readers (t_otf2.sh)
		want libopen-trace-format2-dev /usr/include/otf2/otf2.h
		want otf2-tools    /usr/bin/otf2-print
		want python3-otf2  /usr/lib/python3/dist-packages/otf2/__init__.py
	fi
	if [ "$step" = bench ]; then
		need likwid        /usr/include/likwid-marker.h /usr/include/likwid/likwid-marker.h
		need libpapi-dev   /usr/include/papi.h
		need linux-perf    /usr/bin/perf
	fi
fi

[ -z "$missing$optional" ] && exit 0

echo "install-deps: installing missing Debian packages:$missing$optional" >&2
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
# Another apt-get or dpkg (another user's install, unattended upgrades) may
# hold the apt and dpkg locks: wait for them, up to LC_APT_LOCK_WAIT seconds
# (default 600), saying so, instead of giving up at once.
wait_max=${LC_APT_LOCK_WAIT:-600}
case $wait_max in ''|*[!0-9]*) echo "install-deps: bad LC_APT_LOCK_WAIT '$wait_max'" >&2; exit 2 ;; esac
log=$(mktemp "${TMPDIR:-/tmp}/install-deps.XXXXXX")
trap 'rm -f "$log"' EXIT

# apt ARGS...: apt-get ARGS, run again every 10 s while it fails for a lock
# that another process holds, until wait_max seconds have passed; dpkg's
# own lock is waited for inside apt-get (DPkg::Lock::Timeout).
apt() {
	start=$(date +%s)
	while :; do
		if $SUDO apt-get -o DPkg::Lock::Timeout="$wait_max" "$@" >"$log" 2>&1; then
			grep -v '^$' "$log" | tail -n 3 | sed 's/^/install-deps:   /' >&2
			return 0
		fi
		waited=$(( $(date +%s) - start ))
		if ! grep -qi 'could not get lock\|unable to lock\|lock-frontend\|is another process using it' "$log" ||
		   [ "$waited" -ge "$wait_max" ]; then
			cat "$log" >&2
			[ "$waited" -ge "$wait_max" ] &&
				echo "install-deps: gave up waiting for the apt lock after $waited s (LC_APT_LOCK_WAIT=$wait_max)" >&2
			return 1
		fi
		echo "install-deps: apt-get $1: another apt-get or dpkg holds the lock; waiting ($waited s of at most $wait_max s)" >&2
		sleep 10
	done
}

echo "install-deps: apt-get update" >&2
apt update -q
if [ -n "$missing" ]; then
	echo "install-deps: apt-get install$missing" >&2
	# shellcheck disable=SC2086
	apt install -y -q --no-install-recommends $missing
	echo "install-deps: installed$missing" >&2
fi
[ -z "$optional" ] && exit 0
echo "install-deps: apt-get install$optional (optional)" >&2
# shellcheck disable=SC2086
if apt install -y -q --no-install-recommends $optional; then
	echo "install-deps: installed$optional" >&2
else
	echo "install-deps: could not install$optional: lostcycles builds without them," \
		"and their tests skip (export --otf2: t_otf2.sh)" >&2
fi
