# SPDX-License-Identifier: Apache-2.0
# The bare-metal test images for QEMU virt and their ctest runs, beside the
# checkers in this directory. Included from ports/baremetal/CMakeLists.txt
# (D1_PLATFORM qemu-virt), whose bm_add_image() builds them: the images
# land in build/qemu-virt/ports/baremetal/.

bm_add_image(bm_hello SOURCES ${CMAKE_CURRENT_LIST_DIR}/hello.c)

# Negative control of the bench's bound: the tick never starts (QEMU virt:
# tests/qemu/bench.py; the emulated D1: tests/emu/bench_d1.py).
bm_add_image(bm_bench_no_tick SOURCES ${BM_BENCH_SRC} DEFINES
BENCH_PERIODS=200u BENCH_PERIOD_US=1000u BENCH_LOAD=0 BENCH_FAULT_NO_TICK=1)

# Short runs for ctest, idle and with the memcpy load.
bm_add_image(bm_bench_short SOURCES ${BM_BENCH_SRC} DEFINES
  BENCH_PERIODS=3000u BENCH_PERIOD_US=1000u BENCH_LOAD=0)
# This one also prints the device-side report (latency_report.c linked).
bm_add_image(bm_bench_short_load SOURCES ${BM_BENCH_SRC} DEFINES
  BENCH_PERIODS=3000u BENCH_PERIOD_US=1000u BENCH_LOAD=2 BENCH_DEVICE_REPORT=1)
bm_add_image(bm_hello_fail SOURCES ${CMAKE_CURRENT_LIST_DIR}/hello.c DEFINES HELLO_FORCE_FAIL=3)
bm_add_image(bm_uart_rx SOURCES ${CMAKE_CURRENT_LIST_DIR}/uart_rx.c)
bm_add_image(bm_plic_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/plic_test.c)

# ---- ctest on QEMU virt (each test under a timeout; Python 3 stdlib drivers) ----
enable_testing()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(BM_QEMU_TESTS ${CMAKE_CURRENT_LIST_DIR})
set(BM_IMG ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME qemu_hello
  COMMAND Python3::Interpreter ${BM_QEMU_TESTS}/run_image.py ${BM_IMG}/bm_hello.elf hello --timeout 30)
# Negative control: a failing image must make its test fail (exit status 3).
add_test(NAME qemu_exit_status_fails
  COMMAND Python3::Interpreter ${BM_QEMU_TESTS}/run_image.py ${BM_IMG}/bm_hello_fail.elf hello --timeout 30)
# Its own failure only (WILL_FAIL would pass on any failure: no QEMU, no image, a timeout).
set_tests_properties(qemu_exit_status_fails PROPERTIES
  PASS_REGULAR_EXPRESSION "FAIL: no 'PASS hello' line \\(exit status 3\\)")
add_test(NAME qemu_plic
  COMMAND Python3::Interpreter ${BM_QEMU_TESTS}/run_image.py ${BM_IMG}/bm_plic_test.elf plic --timeout 60)
add_test(NAME qemu_uart_rx_lossless
  COMMAND Python3::Interpreter ${BM_QEMU_TESTS}/uart_rx.py ${BM_IMG}/bm_uart_rx.elf --timeout 120)
set_tests_properties(qemu_hello qemu_exit_status_fails PROPERTIES TIMEOUT 60)
set_tests_properties(qemu_plic PROPERTIES TIMEOUT 90)
set_tests_properties(qemu_uart_rx_lossless PROPERTIES TIMEOUT 150)

# The bench on QEMU virt: report with every field, every period accounted.
# Under -icount (virtual time = instruction count) QEMU sustains 1 ms with
# 0 missed regardless of host load: that run asserts 0 missed. The wall-clock
# run checks the report and the accounting only (a loaded host wakes QEMU late).
add_test(NAME qemu_bench_icount
  COMMAND Python3::Interpreter ${BM_QEMU_TESTS}/bench.py ${BM_IMG}/bm_bench_short.elf
    --periods 3000 --icount shift=0,sleep=off --timeout 60)
add_test(NAME qemu_bench_icount_memcpy_load
  COMMAND Python3::Interpreter ${BM_QEMU_TESTS}/bench.py ${BM_IMG}/bm_bench_short_load.elf
    --periods 3000 --icount shift=0,sleep=off --device-report --timeout 60)
add_test(NAME qemu_bench_wallclock
  COMMAND Python3::Interpreter ${BM_QEMU_TESTS}/bench.py ${BM_IMG}/bm_bench_short.elf
    --periods 3000 --allow-missed --timeout 60)
# The run's bound: with no tick the bench must stop at its
# bound (200 x 1 ms x 1.5 + 1 s), say so and exit non-zero.
add_test(NAME qemu_bench_timeout_reported
  COMMAND Python3::Interpreter ${BM_QEMU_TESTS}/bench.py ${BM_IMG}/bm_bench_no_tick.elf
    --periods 200 --expect-timeout --timeout 60)
set_tests_properties(qemu_bench_icount qemu_bench_icount_memcpy_load qemu_bench_wallclock
  qemu_bench_timeout_reported PROPERTIES TIMEOUT 90)

# FS = Off at boot: no image may contain a floating-point instruction.
add_test(NAME baremetal_no_fp_instructions
  COMMAND Python3::Interpreter ${BM_QEMU_TESTS}/check_no_fp.py
    ${BM_IMG}/bm_hello.dis ${BM_IMG}/bm_plic_test.dis ${BM_IMG}/bm_uart_rx.dis
    ${BM_IMG}/bm_bench.dis ${BM_IMG}/bm_bench_short_load.dis)

# The port's files call each other in one direction only (no circle).
add_test(NAME baremetal_port_acyclic
  COMMAND Python3::Interpreter ${BM_QEMU_TESTS}/check_port_acyclic.py ${CMAKE_NM}
    $<TARGET_OBJECTS:bm_port>
  COMMAND_EXPAND_LISTS)
set_tests_properties(baremetal_port_acyclic PROPERTIES TIMEOUT 30)
