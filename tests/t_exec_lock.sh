#!/bin/sh
# t_exec_lock.sh — "lostcycles exec" keeps its node lock in the user's
# private directory $TMPDIR/lostcycles-UID (made 0700) and never opens it
# through a link: a dangling symbolic link planted at the old name in
# $TMPDIR, or at the lock's name in the private directory, creates no file
# where it points; the private directory is refused when it is a link,
# writable by its group or everyone (sticky or not), or (as root) another
# user's.  A lock held by a process that is no rank of the job is said in
# one line, with exit status 1, and the rank is not run unprofiled.  Each
# refusal leaves no node file and does not run the program.  exec runs
# here without a launcher: its parent (this shell) stands for the
# launcher's process, so the session is lcx$$-HOST.
SUB=exec
. tests/lib.sh
set -u
WL=$(pwd)/build/workloads/control	# 0.4 s, instrumented
need_built t_exec_lock "$WL"
[ -e build/liblostcycles-mpi.so ] ||
	skip t_exec_lock "no MPI layer (build/liblostcycles-mpi.so: install MPICH, then make)"
export TMPDIR="$tmp" XDG_CONFIG_HOME="$tmp/config" LOSTCYCLES_HOST=tnode
unset LOSTCYCLES_LOGGP
LC=$(pwd)/lostcycles
cd "$tmp" || exit 1
dir=$tmp/lostcycles-$(id -u)
lock=$dir/exec.lcx$$-tnode.lock

# refused NAME PAT: exec refuses with PAT, runs nothing and writes no node file
refused() {
	rm -f ran
	refuse "$1" 1 "$2" -o R -- touch ran
	[ ! -e ran ] && [ ! -e R.tnode.data ] && ok "$1: the program did not run, no node file" ||
		fail "$1: the program ran or a node file was written: $(ls)"
}

# the old name in $TMPDIR: a dangling link there is left alone
ln -s "$tmp/victim-old" "$tmp/lostcycles-exec.lcx$$-tnode.lock"
run exec -o A -- "$WL"
check "exec profiles its node" '[ -s A.tnode.data ]'
[ ! -e "$tmp/victim-old" ] && ok "the link at the old name was not followed" ||
	fail "a file was made through the link at the old name"
[ "$(stat -c '%a %u' "$dir")" = "700 $(id -u)" ] && [ -f "$lock" ] &&
	ok "the lock is $lock in a directory of mode 700" ||
	fail "no private lock directory of mode 700: $(ls -la "$dir" 2>&1)"

# a dangling link at the lock's name
rm -f "$lock"
ln -s "$tmp/victim" "$lock"
refused "a link at the lock's name" "symbolic link"
[ ! -e "$tmp/victim" ] && ok "the link at the lock's name was not followed" ||
	fail "a file was made through the link at the lock's name"
rm -f "$lock"

# the lock held by a process that is no rank of this job (this shell,
# through descriptor 9, which the refused exec does not inherit)
exec 9>"$lock"
flock -n 9 || fail "cannot take the lock to hold it"
refused "a lock held by another process" "not by a rank of this job"
exec 9>&-
run exec -o B -- "$WL"
check "the lock released, exec profiles its node again" '[ -s B.tnode.data ]'

# the private directory refused
chmod 770 "$dir"
refused "the private directory writable by its group" "writable by its group"
chmod 1777 "$dir"
refused "the private directory writable by everyone, sticky" "writable by everyone"
chmod 700 "$dir"
mv "$dir" "$tmp/real"
ln -s "$tmp/real" "$dir"
refused "the private directory a symbolic link" "is a symbolic link"
rm "$dir"
mv "$tmp/real" "$dir"
if [ "$(id -u)" -eq 0 ]; then
	chown 65534 "$dir"
	refused "the private directory another user's" "belongs to another user"
	chown 0 "$dir"
else
	echo "skip  another user's private directory: not root (chown needs it)"
fi
SUB=exec_lock
finish
