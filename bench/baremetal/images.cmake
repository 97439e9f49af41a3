# SPDX-License-Identifier: Apache-2.0
# The bare-metal latency bench's images (docs/baremetal.md), included from
# ports/baremetal/CMakeLists.txt, whose bm_add_image() builds them with the
# port into its build directory (build/<preset>/ports/baremetal/bm_bench.bin).
# One tick source per platform: Timer1 through the PLIC on the D1, SBI
# set_timer on QEMU virt.
set(BM_BENCH_DIR ${CMAKE_CURRENT_LIST_DIR})
if(D1_PLATFORM STREQUAL "qemu-virt")
  set(BM_TICK_SRC ${BM_BENCH_DIR}/tick_sbi.c)
else()
  set(BM_TICK_SRC ${BM_BENCH_DIR}/tick_timer1.c)
endif()
set(BM_BENCH_SRC ${BM_BENCH_DIR}/bench.c ${BM_TICK_SRC})
bm_add_image(bm_bench SOURCES ${BM_BENCH_SRC} DEFINES
  BENCH_PERIODS=${D1_BENCH_PERIODS}u BENCH_PERIOD_US=${D1_BENCH_PERIOD_US}u
  BENCH_LOAD=${BM_LOAD_${D1_BENCH_LOAD}})

# The same under the comparison's load (docs/comparison.md): the 64 KiB copy
# and UART0 transmitting from its TX ring.
bm_add_image(bm_bench_load SOURCES ${BM_BENCH_SRC} DEFINES
  BENCH_PERIODS=${D1_BENCH_PERIODS}u BENCH_PERIOD_US=${D1_BENCH_PERIOD_US}u BENCH_LOAD=3)
