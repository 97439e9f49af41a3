# SPDX-License-Identifier: Apache-2.0
# Cross toolchain for the XuanTie C906 (Allwinner D1) and QEMU virt:
# Debian's gcc-riscv64-unknown-elf with picolibc-riscv64-unknown-elf.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_AR riscv64-unknown-elf-ar)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy)
set(CMAKE_OBJDUMP riscv64-unknown-elf-objdump)
set(CMAKE_SIZE riscv64-unknown-elf-size)
set(CMAKE_NM riscv64-unknown-elf-nm)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(D1_ARCH_FLAGS "-march=rv64imafdc_zicsr_zifencei -mabi=lp64d -mcmodel=medany")
set(CMAKE_C_FLAGS_INIT "${D1_ARCH_FLAGS} -ffunction-sections -fdata-sections")
set(CMAKE_ASM_FLAGS_INIT "${D1_ARCH_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=picolibc.specs -nostartfiles -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
