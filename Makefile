# lostcycles — one plain GNU Makefile.
#
#   make            build liblostcycles and the lostcycles command
#   make demo       install missing Debian packages, build, profile the example
#   make check      install missing Debian packages, build, run every test
#   make bench      run the benchmarks (numbers go to docs/performance.md)
#   make install    install under $(DESTDIR)$(PREFIX)
#   make fuzz       run each libFuzzer target for FUZZ_SECONDS (clang)
#
# V=1 shows the full command lines.  SAN=address,undefined or SAN=thread
# builds everything (tool, library, tests, examples) with those sanitizers;
# "make check SAN=..." runs the suite so.  A change of CC, CFLAGS, CPPFLAGS,
# LDFLAGS or SAN rebuilds everything (build/.flags).

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share/lostcycles
MANDIR  ?= $(PREFIX)/share/man
# bash-completion's own folder for completions, under our PREFIX
# (pkg-config's completionsdir with its prefix ours), else the usual one
BASHCOMPDIR ?= $(or $(shell pkg-config --define-variable=prefix='$(PREFIX)' \
	--variable=completionsdir bash-completion 2>/dev/null),$(PREFIX)/share/bash-completion/completions)
DESTDIR ?=

# The versions come from the public header (tests/t_version.sh checks the
# built library, its SONAME and the tool against it).
lc_hdr_num = $(shell sed -n 's/^\#define $(1)[[:space:]][[:space:]]*\([0-9][0-9]*\)$$/\1/p' flaglib/lostcycles.h)
VERSION := $(call lc_hdr_num,LC_VERSION_MAJOR).$(call lc_hdr_num,LC_VERSION_MINOR).$(call lc_hdr_num,LC_VERSION_PATCH)
ABI_MAJOR := $(call lc_hdr_num,LC_ABI_VERSION)
ifneq ($(words $(VERSION) $(ABI_MAJOR)),2)
$(error cannot read LC_VERSION_* and LC_ABI_VERSION from flaglib/lostcycles.h)
endif

CC      ?= cc
CFLAGS  ?= -O2 -g
SAN     ?=
SAN_FLAGS := $(if $(SAN),-fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all)
# Flags the build needs; the user's CFLAGS can add to them but not remove them.
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-unused-parameter \
	     $(LAYER_INC) -DLC_TOOL_VERSION='"$(VERSION)"' -DLC_DATADIR='"$(DATADIR)"' -DLC_LIBDIR='"$(LIBDIR)"' \
	     -pthread -MMD -MP $(CPPFLAGS) $(CFLAGS) $(SAN_FLAGS)

B := build

# ---- the layers: each folder sees only its own headers and those below it --
# (docs/architecture.md; tests/t_layers.sh checks the includes too).
#   cli -> kmod-free-tools -> sampler, postproc -> profile -> util
#   sampler -> flaglib's ABI headers (lostcycles.h, lc_abi.h)
# postproc/ has rooms of its own, each with its own arrows:
#   report -> lca -> common;  lcm -> lca;  export -> common;  merge alone
INC_flaglib  := -Iflaglib
INC_util     := -Iutil
INC_profile  := -Iprofile $(INC_util)
INC_sampler  := -Isampler $(INC_profile) -Iflaglib
INC_pp_common := -Ipostproc/common $(INC_profile)
INC_pp_merge  := -Ipostproc/merge $(INC_profile)
INC_pp_lca    := -Ipostproc/lca $(INC_pp_common)
INC_pp_lcm    := -Ipostproc/lcm $(INC_pp_lca)
INC_pp_report := -Ipostproc/report $(INC_pp_lca)
INC_pp_export := -Ipostproc/export $(INC_pp_common)
PP_ROOMS     := common merge lca lcm report export
INC_postproc := $(PP_ROOMS:%=-Ipostproc/%) $(INC_profile)
INC_tools    := -Ikmod-free-tools -Isampler $(INC_postproc) -Iflaglib
INC_cli      := -Icli $(INC_tools)
INC_all      := $(INC_cli)
LAYER_INC     = $(INC_all)
$(B)/pic/flaglib/%.o:      LAYER_INC = $(INC_flaglib)
$(B)/util/%.o:             LAYER_INC = $(INC_util)
$(B)/profile/%.o:          LAYER_INC = $(INC_profile)
$(B)/sampler/%.o:          LAYER_INC = $(INC_sampler)
$(B)/postproc/common/%.o:  LAYER_INC = $(INC_pp_common)
$(B)/postproc/merge/%.o:   LAYER_INC = $(INC_pp_merge)
$(B)/postproc/lca/%.o:     LAYER_INC = $(INC_pp_lca)
$(B)/postproc/lcm/%.o:     LAYER_INC = $(INC_pp_lcm)
$(B)/postproc/report/%.o:  LAYER_INC = $(INC_pp_report)
$(B)/postproc/export/%.o:  LAYER_INC = $(INC_pp_export)
$(B)/kmod-free-tools/%.o:  LAYER_INC = $(INC_tools)
$(B)/cli/%.o:              LAYER_INC = $(INC_cli)
$(B)/examples/%:           LAYER_INC = $(INC_flaglib)
$(B)/workloads/%:          LAYER_INC = $(INC_flaglib)
ALL_LDFLAGS = -pthread $(LDFLAGS) $(SAN_FLAGS)


# ---- OTF2 (optional): "export --otf2" when libopen-trace-format2-dev is
# installed (pkg-config otf2 and its header); without it the export says
# that this build has no OTF2 support.
HAVE_OTF2 := $(shell pkg-config --exists otf2 2>/dev/null && \
	printf '\043include <otf2/otf2.h>\n' | $(CC) $$(pkg-config --cflags otf2) -fsyntax-only -x c - 2>/dev/null && echo 1)
OTF2_CFLAGS := $(if $(HAVE_OTF2),-DLC_HAVE_OTF2 $(shell pkg-config --cflags otf2))
OTF2_LIBS := $(if $(HAVE_OTF2),$(shell pkg-config --libs otf2))

# The flags every object was built with: a change rewrites the stamp, on
# which every object and program depends, so nothing stale is linked.
FLAGS := $(CC) | $(CFLAGS) | $(CPPFLAGS) | $(LDFLAGS) | $(SAN) | otf2 $(HAVE_OTF2)
STAMP := $(B)/.flags
$(shell mkdir -p $(B) && { [ "$$(cat $(STAMP) 2>/dev/null)" = '$(FLAGS)' ] || printf '%s\n' '$(FLAGS)' > $(STAMP); })

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-7s %s\n'
endif

# ---- the flag library -------------------------------------------------------
LIB_SRC := $(wildcard flaglib/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(B)/pic/%.o)
LIB_SO  := $(B)/liblostcycles.so.$(ABI_MAJOR)
LIB_A   := $(B)/liblostcycles.a
LIB_LIBS := -lrt

# ---- the MPI layer (only where an MPI compiler exists) ----------------------
# liblostcycles-mpi: PMPI wrappers over liblostcycles, found beside it
# ($ORIGIN), for LD_PRELOAD into unmodified MPI programs (docs/mpi.md).
MPICC ?= $(shell command -v mpicc 2>/dev/null)
MPI_SO := $(if $(MPICC),$(B)/liblostcycles-mpi.so.$(ABI_MAJOR))
# the ping-pong of "lostcycles calibrate --mpi" (installed beside the library)
MPI_PINGPONG := $(if $(MPICC),$(B)/lostcycles-pingpong)
MPI_SRC := $(wildcard flaglib/mpi/*.c)
# unmodified MPI test programs (they do not include lostcycles.h)
MPI_TEST_BIN := $(if $(MPICC),$(patsubst tests/mpi/%.c,$(B)/mpi/%,$(wildcard tests/mpi/*.c)))
# (a Fortran test program, when mpif90 and its gfortran exist)
MPIFC ?= $(shell command -v gfortran >/dev/null 2>&1 && command -v mpif90 2>/dev/null)
MPI_TEST_BIN += $(if $(and $(MPICC),$(MPIFC)),$(patsubst tests/mpi/%.f90,$(B)/mpi/%,$(wildcard tests/mpi/*.f90)))
# MPI examples: plain MPI programs for the guide
MPI_EX_BIN := $(if $(MPICC),$(patsubst examples/mpi/%.c,$(B)/examples/mpi/%,$(wildcard examples/mpi/*.c)))

# ---- the lostcycles command -------------------------------------------------
TOOL_SRC := $(wildcard util/*.c profile/*.c sampler/*.c $(PP_ROOMS:%=postproc/%/*.c) kmod-free-tools/*.c cli/*.c)
TOOL_OBJ := $(TOOL_SRC:%.c=$(B)/%.o)
TOOL_MAIN := $(B)/cli/lostcycles.o
TOOL_LIB := $(B)/libtool.a
TOOL_LIBS := -lpfm -lurcu-memb -lurcu-cds -lgsl -lgslcblas -ljson-c -ldw -lelf -lm -lrt $(OTF2_LIBS)
$(B)/postproc/export/otf2.o: ALL_CFLAGS += $(OTF2_CFLAGS)

# ---- tests, examples, benchmarks --------------------------------------------
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(B)/tests/%)
TEST_SH  := $(sort $(wildcard tests/t_*.sh))
WORK_SRC := $(wildcard tests/workloads/*.c)
WORK_BIN := $(WORK_SRC:tests/workloads/%.c=$(B)/workloads/%)
EX_SRC   := $(wildcard examples/*.c)
EX_BIN   := $(EX_SRC:examples/%.c=$(B)/examples/%)
FFT2D_BIN := $(B)/examples/fft2d_tp $(B)/examples/fft2d_dp
JACOBI_BIN := $(B)/examples/jacobi_pt
BENCH_SRC := $(wildcard bench/*.c)
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(B)/bench/%)

.PHONY: all deps deps-bench deps-check check-build demo check install uninstall bench clean examples workloads FORCE

all: lostcycles $(LIB_SO) $(LIB_A) $(B)/lostcycles.pc $(MPI_SO) $(MPI_PINGPONG)

deps:
	@sh scripts/install-deps.sh build
deps-bench:
	@sh scripts/install-deps.sh bench
deps-check:
	@sh scripts/install-deps.sh check

lostcycles: $(TOOL_MAIN) $(TOOL_LIB)
	$(quiet) LINK $@
	$(Q)$(CC) -o $@ $(TOOL_MAIN) $(TOOL_LIB) $(ALL_LDFLAGS) $(TOOL_LIBS)

$(TOOL_LIB): $(filter-out $(TOOL_MAIN),$(TOOL_OBJ))
	$(quiet) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/%.o: %.c $(STAMP)
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/pic/%.o: %.c $(STAMP)
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(LIB_SO): $(LIB_OBJ)
	$(quiet) LINK $@
	$(Q)$(CC) -shared -Wl,-soname,liblostcycles.so.$(ABI_MAJOR) -o $@ $^ $(ALL_LDFLAGS) $(LIB_LIBS)
	$(Q)ln -sf liblostcycles.so.$(ABI_MAJOR) $(B)/liblostcycles.so

$(B)/liblostcycles-mpi.so.$(ABI_MAJOR): $(MPI_SRC) $(LIB_SO) flaglib/lostcycles.h
	$(quiet) MPICC $@
	$(Q)$(MPICC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -fPIC -shared \
		-fvisibility=default $(INC_flaglib) $(CPPFLAGS) $(CFLAGS) \
		-Wl,-soname,liblostcycles-mpi.so.$(ABI_MAJOR) -o $@ $(MPI_SRC) \
		-L$(B) -llostcycles -Wl,-rpath,'$$ORIGIN' $(ALL_LDFLAGS) -lm
	$(Q)ln -sf liblostcycles-mpi.so.$(ABI_MAJOR) $(B)/liblostcycles-mpi.so

$(B)/lostcycles-pingpong: kmod-free-tools/mpi/pingpong.c
	$(quiet) MPICC $<
	$(Q)$(MPICC) -std=c11 -D_GNU_SOURCE -Wall -Wextra $(CFLAGS) -o $@ $<

$(B)/examples/mpi/%: examples/mpi/%.c
	@mkdir -p $(@D)
	$(quiet) MPICC $<
	$(Q)$(MPICC) -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra $(CFLAGS) -o $@ $< -lm

$(B)/mpi/%: tests/mpi/%.f90 $(STAMP)
	@mkdir -p $(@D)
	$(quiet) MPIFC $<
	$(Q)cd $(@D) && $(MPIFC) -O1 -o $(CURDIR)/$@ $(CURDIR)/$<

$(B)/mpi/%: tests/mpi/%.c tests/mpi/mpi_wl.h $(STAMP)
	@mkdir -p $(@D)
	$(quiet) MPICC $<
	$(Q)$(MPICC) -std=c11 -D_GNU_SOURCE -Wall -Wextra $(CFLAGS) -o $@ $< -lm

$(LIB_A): $(LIB_OBJ)
	$(quiet) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/lostcycles.pc: FORCE
	@mkdir -p $(@D)
	$(quiet) GEN $@
	$(Q)printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCDIR)' '' \
		'Name: lostcycles' 'Description: predicate profiling flags for lost cycles analysis' \
		'Version: $(VERSION)' 'Libs: -L$${libdir} -llostcycles' 'Libs.private: -lrt -pthread' \
		'Cflags: -I$${includedir}' > $@

# Programs that use the flag library link it dynamically with an rpath into
# the build tree, exactly as users link the installed library.
USE_LIB = -Lbuild -llostcycles -Wl,-rpath,$(CURDIR)/$(B)

$(B)/examples/%: examples/%.c $(LIB_SO)
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS) $(USE_LIB) -lm

# The 2D FFT case study (examples/fft2d/, docs/case-study-fft2d.md): OpenMP.
$(B)/examples/fft2d_%: examples/fft2d/fft2d_%.c examples/fft2d/fft2d.h $(LIB_SO)
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -fopenmp -o $@ $< $(ALL_LDFLAGS) $(USE_LIB) -lm

# The held-out Jacobi (examples/jacobi/): plain pthreads, no lostcycles code.
$(B)/examples/jacobi_pt: examples/jacobi/jacobi_pt.c
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -pthread -o $@ $< $(ALL_LDFLAGS)

$(B)/workloads/%: tests/workloads/%.c $(LIB_SO)
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/workloads -Iexamples -o $@ $< $(ALL_LDFLAGS) $(USE_LIB) -lm

# A test links the tool's objects and the flag library's objects; a file
# tests/test_NAME.ldflags beside the test adds link flags (e.g. -Wl,--wrap=).
$(B)/tests/%: tests/%.c $(TOOL_LIB) $(LIB_A)
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -Itests -o $@ $< $(TOOL_LIB) $(LIB_A) $(ALL_LDFLAGS) \
		$(shell cat tests/$*.ldflags 2>/dev/null) -lcmocka $(TOOL_LIBS)

# test_cattable once more over a category table with one more row
# (LC_TEST_EXTRA_CAT in lc_profile.h): the analysis layers and what they
# use, built apart with it.
XCAT_SRC := $(filter util/% profile/% postproc/%,$(TOOL_SRC))
XCAT_OBJ := $(XCAT_SRC:%.c=$(B)/xcat/%.o)
TEST_BIN += $(B)/tests/test_cattable_xcat
$(B)/xcat/%/otf2.o: ALL_CFLAGS += $(OTF2_CFLAGS)
$(B)/xcat/%.o: %.c $(STAMP)
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -DLC_TEST_EXTRA_CAT -c -o $@ $<

$(B)/tests/test_cattable_xcat: tests/test_cattable.c $(XCAT_OBJ)
	@mkdir -p $(@D)
	$(quiet) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -DLC_TEST_EXTRA_CAT -Itests -o $@ $< $(XCAT_OBJ) $(ALL_LDFLAGS) \
		-lcmocka $(TOOL_LIBS)

$(B)/bench/%: bench/%.c $(TOOL_LIB) $(LIB_SO)
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(TOOL_LIB) $(ALL_LDFLAGS) $(USE_LIB) $(TOOL_LIBS)

examples: $(EX_BIN) $(MPI_EX_BIN) $(FFT2D_BIN) $(JACOBI_BIN)
workloads: $(WORK_BIN)

demo: deps
	@$(MAKE) --no-print-directory all examples
	@sh scripts/demo.sh

# The test programs are listed by a new make, which reads the MPI compiler
# that deps-check may just have installed.
check: deps-check
	@$(MAKE) --no-print-directory check-build
	@LC_SAN='$(SAN)' sh scripts/run-tests.sh $(TEST_BIN) $(TEST_SH)
check-build: all examples workloads $(TEST_BIN) $(MPI_TEST_BIN) $(BENCH_BIN)

bench: deps-bench
	@$(MAKE) --no-print-directory all workloads $(BENCH_BIN)
	@sh scripts/run-bench.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCDIR) \
		$(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(BASHCOMPDIR)
	install -m 755 lostcycles $(DESTDIR)$(BINDIR)/lostcycles
	./lostcycles --completion bash >$(DESTDIR)$(BASHCOMPDIR)/lostcycles
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf liblostcycles.so.$(ABI_MAJOR) $(DESTDIR)$(LIBDIR)/liblostcycles.so
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/
	$(if $(MPI_SO),install -m 755 $(MPI_SO) $(DESTDIR)$(LIBDIR)/)
	$(if $(MPI_SO),ln -sf liblostcycles-mpi.so.$(ABI_MAJOR) $(DESTDIR)$(LIBDIR)/liblostcycles-mpi.so)
	$(if $(MPI_PINGPONG),install -m 755 $(MPI_PINGPONG) $(DESTDIR)$(LIBDIR)/)
	install -m 644 flaglib/lostcycles.h $(DESTDIR)$(INCDIR)/
	install -m 644 $(B)/lostcycles.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	for f in share/*; do [ -f "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(DATADIR)/; done; true
	for f in docs/man/*.1; do [ -f "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(MANDIR)/man1/; done; true
	for f in docs/man/*.3; do [ -f "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(MANDIR)/man3/; done; true
	@# a page per public macro and function; the ".so man3/PAGE.3" links as they are
	for f in docs/man/man3/*.3; do install -m 644 "$$f" $(DESTDIR)$(MANDIR)/man3/; done
	@# installed into the real root: let the dynamic linker find the library
	$(if $(DESTDIR),,-ldconfig 2>/dev/null)

# Exactly the files install put there: nothing else in those folders, and
# never a whole folder (DATADIR= may point anywhere).
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/lostcycles \
		$(DESTDIR)$(LIBDIR)/liblostcycles.so.$(ABI_MAJOR) $(DESTDIR)$(LIBDIR)/liblostcycles.so \
		$(DESTDIR)$(LIBDIR)/liblostcycles.a \
		$(DESTDIR)$(LIBDIR)/liblostcycles-mpi.so.$(ABI_MAJOR) $(DESTDIR)$(LIBDIR)/liblostcycles-mpi.so \
		$(DESTDIR)$(LIBDIR)/lostcycles-pingpong \
		$(DESTDIR)$(INCDIR)/lostcycles.h $(DESTDIR)$(LIBDIR)/pkgconfig/lostcycles.pc \
		$(DESTDIR)$(BASHCOMPDIR)/lostcycles
	for f in share/*; do rm -f $(DESTDIR)$(DATADIR)/$${f##*/}; done
	-rmdir $(DESTDIR)$(DATADIR) 2>/dev/null
	for f in docs/man/*.1; do rm -f $(DESTDIR)$(MANDIR)/man1/$${f##*/}; done
	for f in docs/man/*.3; do rm -f $(DESTDIR)$(MANDIR)/man3/$${f##*/}; done
	for f in docs/man/man3/*.3; do rm -f $(DESTDIR)$(MANDIR)/man3/$${f##*/}; done

# The build's own outputs only; a profile the user wrote (lostcycles.data)
# is theirs.
clean:
	rm -rf $(B) lostcycles

# ---- the automatic layers: OpenMP tool and pthread preload ------------------
# liblostcycles-omp is an OMPT tool for LLVM's libomp; it needs omp-tools.h,
# which comes with clang (libomp-dev), so it is compiled with $(OMP_CC) and
# skipped when that header is missing.  liblostcycles-pthread is an
# LD_PRELOAD layer.  Both link liblostcycles and find it beside themselves.
# Their test programs are unmodified OpenMP (clang -fopenmp) and pthread
# programs under tests/layers/; the *_macros ones also use the flag macros.
OMP_CC ?= clang
HAVE_OMPT := $(shell $(OMP_CC) -fsyntax-only -include omp-tools.h -x c /dev/null 2>/dev/null && echo 1)
OMP_OBJ := $(patsubst %.c,$(B)/pic/%.o,$(wildcard flaglib/omp/*.c))
PT_OBJ  := $(patsubst %.c,$(B)/pic/%.o,$(wildcard flaglib/pthread/*.c))
OMP_SO  := $(B)/liblostcycles-omp.so.$(ABI_MAJOR)
PT_SO   := $(B)/liblostcycles-pthread.so.$(ABI_MAJOR)
LAYER_SO := $(PT_SO) $(if $(HAVE_OMPT),$(OMP_SO))
LAYER_LIBS = -L$(B) -llostcycles -Wl,-rpath,'$$ORIGIN' -ldl
LAYER_OMP_BIN := $(if $(HAVE_OMPT),$(patsubst tests/layers/%.c,$(B)/layers/%,\
	$(wildcard tests/layers/omp_*.c)))
LAYER_PT_BIN := $(patsubst tests/layers/%.c,$(B)/layers/%,$(wildcard tests/layers/pt_*.c))

.PHONY: layers layer-workloads install-layers uninstall-layers

all: layers
workloads: layer-workloads
install: install-layers
uninstall: uninstall-layers

layers: $(LAYER_SO)
layer-workloads: $(LAYER_OMP_BIN) $(LAYER_PT_BIN)

$(OMP_OBJ): CC := $(OMP_CC)
$(B)/layers/%: LAYER_INC = $(INC_flaglib)

# link-layer NAME OBJECTS: the shared library NAME.so.MAJOR and its .so link
define link-layer
	$(quiet) LINK $@
	$(Q)$(CC) -shared -Wl,-soname,$(1).so.$(ABI_MAJOR) -o $@ $(2) $(ALL_LDFLAGS) $(LAYER_LIBS)
	$(Q)ln -sf $(1).so.$(ABI_MAJOR) $(B)/$(1).so
endef

$(OMP_SO): $(OMP_OBJ) $(LIB_SO)
	$(call link-layer,liblostcycles-omp,$(OMP_OBJ))

$(PT_SO): $(PT_OBJ) $(LIB_SO)
	$(call link-layer,liblostcycles-pthread,$(PT_OBJ))

$(B)/layers/omp_%: tests/layers/omp_%.c tests/layers/layer_wl.h $(LIB_SO)
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(OMP_CC) $(ALL_CFLAGS) -fopenmp -o $@ $< $(ALL_LDFLAGS) -fopenmp \
		$(if $(filter %macros,$*),$(USE_LIB)) -lm

$(B)/layers/pt_%: tests/layers/pt_%.c tests/layers/layer_wl.h $(LIB_SO)
	@mkdir -p $(@D)
	$(quiet) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS) \
		$(if $(filter %macros,$*),$(USE_LIB)) -lm

install-layers: layers
	install -d $(DESTDIR)$(LIBDIR)
	for f in $(LAYER_SO); do \
		install -m 755 $$f $(DESTDIR)$(LIBDIR)/ && \
		b=$${f##*/} && ln -sf $$b $(DESTDIR)$(LIBDIR)/$${b%.so.*}.so; \
	done

uninstall-layers:
	for n in liblostcycles-omp liblostcycles-pthread; do \
		rm -f $(DESTDIR)$(LIBDIR)/$$n.so.$(ABI_MAJOR) $(DESTDIR)$(LIBDIR)/$$n.so; \
	done

FORCE:

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# ---- fuzzing: libFuzzer targets (tests/fuzz/) ------------------------------
# The parsers of untrusted files (profile, runs, formula, model, grid) and
# merge's node-file checks and the gnuplot string writer of the plot
# scripts (gpquote) are built with clang's libFuzzer, ASan and UBSan.
# profile_blocks reads profiles whose blocks it mutated one at a time
# with their CRCs repaired (random bytes seldom pass a block's CRC).
# "make fuzz" runs each for FUZZ_SECONDS on its kept corpus
# (tests/fuzz/corpus/NAME, seeded from real files) plus what it finds
# (build/fuzz/found-NAME); "make check" runs each a few seconds
# (tests/t_fuzz.sh).  A crash is kept as a regression input in the corpus
# once fixed.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 120
FUZZ_NAMES := profile profile_blocks runs formula model grid merge gpquote extrap
HAVE_FUZZ := $(shell printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){return 0;}' | \
	$(FUZZ_CC) -fsanitize=fuzzer -x c -o /dev/null - 2>/dev/null && echo 1)
FUZZ_B := $(B)/fuzz
FUZZ_SRC := $(wildcard util/*.c profile/*.c $(PP_ROOMS:%=postproc/%/*.c))
FUZZ_OBJ := $(FUZZ_SRC:%.c=$(FUZZ_B)/%.o)
FUZZ_BIN := $(FUZZ_NAMES:%=$(FUZZ_B)/fuzz_%)
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 $(INC_postproc) -Itests/fuzz \
	-fsanitize=address,undefined -fno-sanitize-recover=all -DLC_DATADIR='"$(DATADIR)"' \
	-DLC_TOOL_VERSION='"$(VERSION)"' -DLC_LIBDIR='"$(LIBDIR)"'

.PHONY: fuzz fuzz-build
check-build: $(if $(HAVE_FUZZ),fuzz-build)
fuzz-build: $(FUZZ_BIN)

$(FUZZ_B)/%.o: %.c $(STAMP)
	@mkdir -p $(@D)
	$(quiet) FUZZCC $<
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_B)/libparse.a: $(FUZZ_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_B)/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(FUZZ_B)/libparse.a
	$(quiet) FUZZLD $@
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_B)/libparse.a \
		-lgsl -lgslcblas -ljson-c -lm -pthread

fuzz: deps-check
	@$(MAKE) --no-print-directory fuzz-build
	@for t in $(FUZZ_NAMES); do \
		mkdir -p $(FUZZ_B)/found-$$t && \
		echo "fuzz_$$t: $(FUZZ_SECONDS) s" && \
		$(FUZZ_B)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_B)/ $(FUZZ_B)/found-$$t tests/fuzz/corpus/$$t \
			>$(FUZZ_B)/fuzz_$$t.log 2>&1; \
		st=$$?; \
		grep -E '^(stat::number_of_executed_units|stat::new_units_added|==.*ERROR|SUMMARY)' \
			$(FUZZ_B)/fuzz_$$t.log; \
		[ $$st -eq 0 ] || { echo "fuzz_$$t failed: see $(FUZZ_B)/fuzz_$$t.log"; exit 1; }; \
	done
