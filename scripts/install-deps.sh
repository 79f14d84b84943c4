#!/bin/sh
# Install the Debian packages a step of lostcycles needs, but only those whose
# header or tool is missing.  Runs apt-get non-interactively; does nothing
# when all is there.
#   install-deps.sh build   what building the tool and running the demo needs
#   install-deps.sh check   that, plus what the tests need (cmocka, gnuplot,
#                           MPICH, clang with LLVM's OpenMP runtime and its
#                           libFuzzer and sanitizer runtimes)
#   install-deps.sh bench   build's, plus the peers "make bench" measures
#                           beside the tool (LIKWID, PAPI, perf)
#   install-deps.sh chromium  the headless browser of the HTML report's test
#                           (tests/t_html.sh: only that test needs it)
set -eu

step=${1:-build}
case $step in
build|check|bench|chromium) ;;
*) echo "usage: install-deps.sh build|check|bench|chromium" >&2; exit 2 ;;
esac

missing=""
need() {	# need PACKAGE FILE...: PACKAGE is missing when none of FILE exists
	pkg=$1; shift
	for f in "$@"; do
		[ -e "$f" ] && return 0
	done
	missing="$missing $pkg"
}

multi=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
if [ "$step" = chromium ]; then
	need chromium /usr/bin/chromium
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
		need clang         /usr/bin/clang
		need libomp-dev    /usr/lib/llvm-*/lib/clang/*/include/omp-tools.h
		# libFuzzer and the sanitizers' runtimes (t_fuzz.sh, make fuzz,
		# SAN=): only recommended by clang, so asked for by name
		need libclang-rt-dev /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a
	fi
	if [ "$step" = bench ]; then
		need likwid        /usr/include/likwid-marker.h /usr/include/likwid/likwid-marker.h
		need libpapi-dev   /usr/include/papi.h
		need linux-perf    /usr/bin/perf
	fi
fi

[ -z "$missing" ] && exit 0

echo "installing missing Debian packages:$missing" >&2
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
