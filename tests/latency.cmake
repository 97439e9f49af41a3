# SPDX-License-Identifier: Apache-2.0
# Latency recorder checks that are not cmocka tests (included from
# tests/CMakeLists.txt): the JSON line through python3 -m json.tool, the
# benchmark as a smoke test, and the comparison tool's own test.
find_package(Python3 REQUIRED COMPONENTS Interpreter)

add_executable(lat_report_demo lat_report_demo.c)
target_link_libraries(lat_report_demo PRIVATE d1drivers_report)
d1_target_warnings(lat_report_demo)
add_test(NAME latency_json
  COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/check_latency_json.py
          $<TARGET_FILE:lat_report_demo>)

# The bench's run line: its one writer against its one parser.
add_executable(bench_run_demo bench_run_demo.c)
target_link_libraries(bench_run_demo PRIVATE d1drivers_report)
d1_target_warnings(bench_run_demo)
add_test(NAME bench_run_line
  COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/os/test_benchrun.py
          $<TARGET_FILE:bench_run_demo>)
set_tests_properties(bench_run_line PROPERTIES ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")

add_executable(bench_latency bench_latency.c)
target_link_libraries(bench_latency PRIVATE d1drivers_report)
d1_target_warnings(bench_latency)
add_test(NAME bench_latency_smoke COMMAND bench_latency 100000)

add_test(NAME d1lat_compare
  COMMAND Python3::Interpreter -m unittest -v test_d1lat_compare
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/bench/tools)
set_tests_properties(d1lat_compare PROPERTIES ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
add_test(NAME d1lat_comparison
  COMMAND Python3::Interpreter -m unittest -v test_d1lat_comparison
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/bench/tools)
set_tests_properties(d1lat_comparison PROPERTIES ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
# bench/tools/d1lat_range.py: the comparison across the timing model's
# estimated ranges (bench/c906_range.sh).
add_test(NAME d1lat_range
  COMMAND Python3::Interpreter -m unittest -v test_d1lat_range
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/bench/tools)
set_tests_properties(d1lat_range PROPERTIES ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
add_test(NAME d1lat_capture
  COMMAND Python3::Interpreter -m unittest -v test_d1lat_capture
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/bench/tools)
set_tests_properties(d1lat_capture PROPERTIES ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1" TIMEOUT 60)
# bench/tools/count_paths.py, which counts d1_lat_record's paths for the
# benchmarks: an indirect call must stop it, not end a path; skipped
# without the riscv64 toolchain.
add_test(NAME count_paths
  COMMAND Python3::Interpreter -m unittest -v test_count_paths
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/bench/tools)
set_tests_properties(count_paths PROPERTIES ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
