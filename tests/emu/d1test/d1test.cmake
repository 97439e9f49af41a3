# SPDX-License-Identifier: Apache-2.0
# d1test: guest images that prove the library's behaviour on the emulated D1
# (QEMU -M allwinner-d1, emu/qemu-d1), and their ctest runs
# (tests/emu/d1test_*.py; docs/reliability.md "On the emulated D1"). Included from
# ports/baremetal/CMakeLists.txt for D1_PLATFORM=d1 only.
set(D1TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

# For the emulated D1 (emu/, tests/emu/): the lossless-receive test after
# a BUSY-safe reconfigure, at 1,500,000 and at 115,200 baud.
bm_add_image(bm_uart_rx_d1_1500000 SOURCES ${CMAKE_CURRENT_LIST_DIR}/../uart_rx_d1.c DEFINES UART_RX_BAUD=1500000u)
bm_add_image(bm_uart_rx_d1_115200 SOURCES ${CMAKE_CURRENT_LIST_DIR}/../uart_rx_d1.c DEFINES UART_RX_BAUD=115200u)
# The watchdog reset in the middle of a bench run (tests/emu/wdt_reset_d1.py):
# the bench fed every second with a 4 s timeout, feeding stopped after
# 5,000 samples.
bm_add_port(bm_port_wdt_starve feed 4000 5000)
bm_add_image(bm_bench_wdt_starve SOURCES ${BM_BENCH_SRC} PORT bm_port_wdt_starve DEFINES
  BENCH_PERIODS=20000u BENCH_PERIOD_US=1000u BENCH_LOAD=0)

# Negative control of the bench's bound: the tick never starts (QEMU virt:
# tests/qemu/bench.py; the emulated D1: tests/emu/bench_d1.py).
bm_add_image(bm_bench_no_tick SOURCES ${BM_BENCH_SRC} DEFINES
  BENCH_PERIODS=200u BENCH_PERIOD_US=1000u BENCH_LOAD=0 BENCH_FAULT_NO_TICK=1)

# The M-mode shim that stands in for OpenSBI (-bios), built with S_PER off
# and on. Linked alone at 0x40000000 with the library (d1_plic_set_s_per).
foreach(sper 0 1)
  add_executable(d1test_mshim_sper${sper} ${D1TEST_DIR}/mshim_start.S ${D1TEST_DIR}/mshim.c)
  set_target_properties(d1test_mshim_sper${sper} PROPERTIES SUFFIX ".elf" C_EXTENSIONS ON)
  target_compile_definitions(d1test_mshim_sper${sper} PRIVATE MSHIM_S_PER=${sper})
  target_compile_options(d1test_mshim_sper${sper} PRIVATE -ffreestanding)
  target_link_libraries(d1test_mshim_sper${sper} PRIVATE d1drivers)
  d1_target_warnings(d1test_mshim_sper${sper})
  target_link_options(d1test_mshim_sper${sper} PRIVATE -nostdlib -T${D1TEST_DIR}/mshim.ld
    -Wl,--no-warn-rwx-segments)
  set_property(TARGET d1test_mshim_sper${sper} APPEND PROPERTY LINK_DEPENDS ${D1TEST_DIR}/mshim.ld)
endforeach()

bm_add_image(d1test_sper SOURCES ${D1TEST_DIR}/sper.c)
bm_add_image(d1test_sper_raw SOURCES ${D1TEST_DIR}/sper.c DEFINES SPER_RAW_PROBE=1)

# ---- ctest on the emulated D1 (label d1test; each under a timeout) ----
enable_testing()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(D1TEST_PY ${PROJECT_SOURCE_DIR}/tests/emu)
set(D1TEST_IMG ${CMAKE_CURRENT_BINARY_DIR})
set(D1TEST_SHIMS --shim0 ${D1TEST_IMG}/d1test_mshim_sper0.elf --shim1 ${D1TEST_IMG}/d1test_mshim_sper1.elf)
foreach(case off on opensbi)
  add_test(NAME emu_d1test_sper_${case}
    COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_sper.py --case ${case}
      --image ${D1TEST_IMG}/d1test_sper.elf ${D1TEST_SHIMS})
endforeach()
add_test(NAME emu_d1test_sper_raw_faults
  COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_sper.py --case raw
    --image ${D1TEST_IMG}/d1test_sper_raw.elf ${D1TEST_SHIMS})
set_tests_properties(emu_d1test_sper_off emu_d1test_sper_on emu_d1test_sper_opensbi
  emu_d1test_sper_raw_faults PROPERTIES TIMEOUT 120 LABELS d1test RUN_SERIAL TRUE)

bm_add_image(d1test_oneshot SOURCES ${D1TEST_DIR}/oneshot.c)
add_test(NAME emu_d1test_oneshot
  COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_oneshot.py ${D1TEST_IMG}/d1test_oneshot.elf)
set_tests_properties(emu_d1test_oneshot PROPERTIES TIMEOUT 300 LABELS d1test RUN_SERIAL TRUE)

bm_add_image(d1test_uart_err SOURCES ${D1TEST_DIR}/uart_err.c)
add_test(NAME emu_d1test_uart_errors_counted
  COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_uart_err.py ${D1TEST_IMG}/d1test_uart_err.elf)
# Negative control: the same stream without injection must fail the counts.
add_test(NAME emu_d1test_uart_errors_no_inject_fails
  COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_uart_err.py --no-inject
    ${D1TEST_IMG}/d1test_uart_err.elf)
# Its own failure only (WILL_FAIL would pass on any failure: no QEMU, no
# image, a timeout): injected errors not counted, and the image ran to its end.
set_tests_properties(emu_d1test_uart_errors_no_inject_fails PROPERTIES PASS_REGULAR_EXPRESSION
  "FAIL  framing errors counted: 0 \\(injected [1-9][0-9]*\\).*ok    the image ran to its end")
set_tests_properties(emu_d1test_uart_errors_counted emu_d1test_uart_errors_no_inject_fails
  PROPERTIES TIMEOUT 200 LABELS d1test RUN_SERIAL TRUE)

# The same with auto RTS/CTS (d1_uart_config::rtscts): no overrun at all.
bm_add_image(d1test_uart_err_rtscts SOURCES ${D1TEST_DIR}/uart_err.c DEFINES UERR_RTSCTS=1)
add_test(NAME emu_d1test_uart_rtscts_no_overrun
  COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_uart_err.py --rtscts
    ${D1TEST_IMG}/d1test_uart_err_rtscts.elf)
set_tests_properties(emu_d1test_uart_rtscts_no_overrun PROPERTIES TIMEOUT 200 LABELS d1test
  RUN_SERIAL TRUE)

bm_add_image(d1test_plic_storm SOURCES ${D1TEST_DIR}/plic_storm.c)
add_test(NAME emu_d1test_plic_storm
  COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_plic_storm.py ${D1TEST_IMG}/d1test_plic_storm.elf)
set_tests_properties(emu_d1test_plic_storm PROPERTIES TIMEOUT 240 LABELS d1test RUN_SERIAL TRUE)

bm_add_image(d1test_idle SOURCES ${D1TEST_DIR}/idle.c)
add_test(NAME emu_d1test_idle_no_timer_no_warp
  COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_idle.py ${D1TEST_IMG}/d1test_idle.elf)
set_tests_properties(emu_d1test_idle_no_timer_no_warp PROPERTIES TIMEOUT 120 LABELS d1test
  RUN_SERIAL TRUE)

# The firmware's SBI timer never interrupts on the board
# (docs/hardware-facts.md "CLINT"); the machine models that by default, and sbi-timer=on is the
# negative control: the same image must see the interrupt there.
bm_add_image(d1test_sbi_timer SOURCES ${D1TEST_DIR}/sbi_timer.c)
foreach(case off on)
  add_test(NAME emu_d1test_sbi_timer_${case}
    COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_sbi_timer.py --sbi-timer ${case}
      ${D1TEST_IMG}/d1test_sbi_timer.elf)
  set_tests_properties(emu_d1test_sbi_timer_${case} PROPERTIES TIMEOUT 120 LABELS d1test
    RUN_SERIAL TRUE)
endforeach()

# The D1 images' wake-up (bm_platform_wake_at: Timer0 through the library):
# one arm, a deadline beyond one arm's reach (re-armed from its interrupt),
# a deadline already past, and a cancel.
bm_add_image(d1test_wake SOURCES ${D1TEST_DIR}/wake.c)
add_test(NAME emu_d1test_wake
  COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_wake.py ${D1TEST_IMG}/d1test_wake.elf)
set_tests_properties(emu_d1test_wake PROPERTIES TIMEOUT 120 LABELS d1test RUN_SERIAL TRUE)

# A PLL_CPU change with the core running from it, as the boot chain leaves
# the D1: the library parks the core first (the emulated CCU logs any write
# that leaves the core on a PLL not running); the raw image is the control.
bm_add_image(d1test_ccu_cpu SOURCES ${D1TEST_DIR}/ccu_cpu.c)
bm_add_image(d1test_ccu_cpu_glitch SOURCES ${D1TEST_DIR}/ccu_cpu.c DEFINES CCU_RAW_GLITCH=1)
add_test(NAME emu_d1test_ccu_cpu_change
  COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_ccu_cpu.py ${D1TEST_IMG}/d1test_ccu_cpu.elf)
add_test(NAME emu_d1test_ccu_cpu_glitch_reported
  COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_ccu_cpu.py --glitch
    ${D1TEST_IMG}/d1test_ccu_cpu_glitch.elf)
set_tests_properties(emu_d1test_ccu_cpu_change emu_d1test_ccu_cpu_glitch_reported PROPERTIES
  TIMEOUT 120 LABELS d1test RUN_SERIAL TRUE)

# d1_port_probe32() from an interrupt handler: the probe's fault is a trap
# inside a trap, and the outer one must still return where it came from.
bm_add_image(d1test_probe_nested SOURCES ${D1TEST_DIR}/probe_nested.c)
add_test(NAME emu_d1test_probe_nested
  COMMAND Python3::Interpreter ${D1TEST_PY}/d1test_probe_nested.py
    ${D1TEST_IMG}/d1test_probe_nested.elf)
set_tests_properties(emu_d1test_probe_nested PROPERTIES TIMEOUT 60 LABELS d1test RUN_SERIAL TRUE)

# The port's files call each other in one direction only (no circle).
add_test(NAME baremetal_port_acyclic
  COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/qemu/check_port_acyclic.py ${CMAKE_NM}
    $<TARGET_OBJECTS:bm_port>
  COMMAND_EXPAND_LISTS)
set_tests_properties(baremetal_port_acyclic PROPERTIES TIMEOUT 30)
