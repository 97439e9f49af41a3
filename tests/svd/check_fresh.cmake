# SPDX-License-Identifier: Apache-2.0
# Re-extract the SVD table and compare it with the committed one.
if(NOT EXISTS ${SVD})
  message(STATUS "SKIP: ${SVD} not present")
  return()
endif()
execute_process(COMMAND ${PY} ${SCRIPT} ${SVD} ${OUT} RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "extract_svd.py failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${TABLE} ${OUT} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "committed table differs from a fresh extraction: rerun tests/svd/extract_svd.py")
endif()
