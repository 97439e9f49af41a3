# SPDX-License-Identifier: Apache-2.0
# Warnings are errors on host and target builds.
set(D1_WARNINGS
  -Wall -Wextra -Werror -Wconversion -Wsign-conversion -Wshadow
  -Wstrict-prototypes -Wmissing-prototypes -Wpedantic -Wcast-align
  -Wundef -Wdouble-promotion -Wformat=2 -Wvla)

function(d1_target_warnings target)
  target_compile_options(${target} PRIVATE ${D1_WARNINGS})
endfunction()
