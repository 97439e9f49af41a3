# SPDX-License-Identifier: Apache-2.0
# ctest driver: install the build tree into a scratch prefix and build + run
# a consumer with find_package(); then the same consumer with add_subdirectory().
# Inputs: -DBIN=<d1drivers build dir> -DSRC=<d1drivers source> -DWORK=<scratch>
# -DCFLAGS/-DLDFLAGS: the build's flags (the host preset builds with sanitizers).
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BIN} --prefix ${WORK}/prefix
  RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "install failed")
endif()
foreach(f include/d1/timer.h include/d1/mmio.h lib/libd1drivers.a
    lib/cmake/d1drivers/d1driversConfig.cmake)
  if(NOT EXISTS ${WORK}/prefix/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
foreach(mode find subdir)
  if(mode STREQUAL "subdir")
    set(extra -DD1_VIA_SUBDIR=ON -DD1_SOURCE_DIR=${SRC})
  else()
    set(extra -DCMAKE_PREFIX_PATH=${WORK}/prefix)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC}/tests/package -B ${WORK}/${mode}
      -DCMAKE_C_COMPILER=gcc "-DCMAKE_C_FLAGS=${CFLAGS}"
      "-DCMAKE_EXE_LINKER_FLAGS=${LDFLAGS}" ${extra} RESULT_VARIABLE rc OUTPUT_QUIET)
  if(rc)
    message(FATAL_ERROR "configure (${mode}) failed")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/${mode} RESULT_VARIABLE rc
    OUTPUT_QUIET)
  if(rc)
    message(FATAL_ERROR "build (${mode}) failed")
  endif()
  execute_process(COMMAND ${WORK}/${mode}/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(rc OR NOT out MATCHES "1 kHz = 24000 clocks")
    message(FATAL_ERROR "consumer (${mode}) failed: ${out}")
  endif()
  message(STATUS "${mode}: ${out}")
endforeach()
