# Toolchain for the WASI build: Debian's clang against wasi-libc
# (packages wasi-libc and libclang-rt-14-dev-wasm32, which tools/setup.sh installs).
set(CMAKE_SYSTEM_NAME Generic) # CMake 3.25 has no WASI platform
set(MM_WASI ON)
set(CMAKE_SYSTEM_VERSION 1)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_C_COMPILER clang)
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(CMAKE_SYSROOT /usr)
set(CMAKE_EXECUTABLE_SUFFIX .wasm)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
