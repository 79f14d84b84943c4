#!/bin/sh
# t_docpaths.sh — the sample output in README.md and docs/ shows no
# absolute path of the machine it was written on: no checkout or build
# directory (a path through build/ or share/advice.txt outside /usr), no
# home or temporary directory of a session (/root/, /work/, /tmp/lw-).
# Run from the top of the tree (make check does).
set -u
bad=$(grep -nE "(^|[ (:=])/[^ ]*/(build/|share/advice)|/root/|/work/|/tmp/lw-" \
	README.md docs/*.md docs/man/*.1 | grep -v "(^|[ (:=])/usr/" | grep -vE "[ (:=]/usr/")
if [ -n "$bad" ]; then
	echo "$bad" | sed 's/^/  /'
	echo "t_docpaths: absolute paths of a machine in the documentation (above)"
	exit 1
fi
echo "t_docpaths: no machine's absolute paths in README.md and docs/"
