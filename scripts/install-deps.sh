#!/bin/sh
# Install the Debian packages lostcycles needs, but only those whose header or
# tool is missing.  Runs apt-get non-interactively; does nothing when all is there.
set -eu

missing=""
need() {	# need PACKAGE FILE...: PACKAGE is missing when none of FILE exists
	pkg=$1; shift
	for f in "$@"; do
		[ -e "$f" ] && return 0
	done
	missing="$missing $pkg"
}

multi=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
need libpfm4-dev   /usr/include/perfmon/pfmlib_perf_event.h
need liburcu-dev   /usr/include/urcu.h /usr/include/$multi/urcu.h
need libcmocka-dev /usr/include/cmocka.h
need libgsl-dev    /usr/include/gsl/gsl_multifit.h
need gnuplot-nox   /usr/bin/gnuplot
need make          /usr/bin/make
need gcc           /usr/bin/gcc
need binutils      /usr/bin/readelf
need mpich         /usr/bin/mpiexec.hydra /usr/bin/mpiexec
need libmpich-dev  /usr/include/$multi/mpich/mpi.h /usr/include/mpich/mpi.h

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
