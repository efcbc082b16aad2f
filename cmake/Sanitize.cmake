# The sanitizer stage (scripts/test.sh): ASan + UBSan, -fno-sanitize-recover=all, at -O1. A second full build
# of every cell does not fit npm test's CI budget, so only the code that meets raw input is instrumented —
# src/core (parsing, CSV, text, result checks, registry, least squares), the JPEG path (our segment walk and
# stb_image), the readers of a trace (src/llm/workload/workload_trace.cpp), of a vLLM benchmark result and of a Hugging
# Face config.json (RapidJSON: /usr/include, searched natively) and of llm/calibration's measurements, the CLI and
# the tests — and the cells' objects come from the native build's libsl_core.a (SERVING_LAB_NATIVE_BUILD, default
# build/native), which the linker reads after our objects: a member it already has is not taken again. Mixing
# instrumented and plain objects is how ASan is meant to be deployed.
set(SERVING_LAB_NATIVE_BUILD "${PROJECT_SOURCE_DIR}/build/native" CACHE PATH "the native build holding libsl_core.a")
set(native_core "${SERVING_LAB_NATIVE_BUILD}/libsl_core.a")
if(NOT EXISTS "${native_core}")
  message(FATAL_ERROR "the sanitizer build links the cells from ${native_core}: build the native targets first")
endif()
find_package(Catch2 2 REQUIRED)
find_path(NLOHMANN_JSON_INCLUDE nlohmann/json.hpp REQUIRED)
set(sanitize_flags -O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)

file(GLOB sanitized_sources CONFIGURE_DEPENDS src/core/*.cpp src/request/resnet/jpeg_*.cpp
     src/llm/workload/workload_trace.cpp src/llm/calibration/bench_result*.cpp src/llm/model/model_config*.cpp
     src/llm/calibration/calibration_measurements.cpp src/cli/*.cpp)
list(FILTER sanitized_sources EXCLUDE REGEX ".*/main\\.cpp$")
add_library(sl_sanitized OBJECT ${sanitized_sources})
target_include_directories(sl_sanitized PUBLIC src ${NLOHMANN_JSON_INCLUDE})
target_compile_options(sl_sanitized PUBLIC ${sanitize_flags})
target_link_options(sl_sanitized PUBLIC -fsanitize=address,undefined)

function(sanitized_executable name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE sl_sanitized "${native_core}")
endfunction()

sanitized_executable(serving-lab src/cli/main.cpp)
sanitized_executable(sl_fuzz tests/fuzz/fuzz.cpp)
target_compile_definitions(sl_fuzz PRIVATE SERVING_LAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
# The core, CLI, JPEG, trace, benchmark-result, config.json and measurement-file tests, with the fuzz corpus replay.
file(GLOB sanitizer_test_sources CONFIGURE_DEPENDS tests/unit/core/*_test.cpp tests/unit/cli/*_test.cpp
     tests/unit/request/resnet/jpeg_*_test.cpp tests/unit/llm/workload/workload_trace_test.cpp
     tests/unit/llm/calibration/bench_result_test.cpp tests/unit/llm/model/model_config_test.cpp
     tests/unit/llm/calibration/calibration_measurements_test.cpp)
sanitized_executable(sanitizer_tests tests/unit/main.cpp ${sanitizer_test_sources})
target_link_libraries(sanitizer_tests PRIVATE Catch2::Catch2)
target_include_directories(sanitizer_tests PRIVATE tests/unit)
target_compile_definitions(sanitizer_tests PRIVATE SERVING_LAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_precompile_headers(sanitizer_tests PRIVATE tests/unit/pch.h)
set_source_files_properties(tests/unit/main.cpp PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
# Catch2's runner (tests/unit/main.cpp: the whole Catch2 implementation) and the lab-file test (nlohmann's
# JSON parser over the lab files) are drivers, not code that meets a reader's input: instrumented they took
# 53 s and 19 s of CPU to compile here, plain 10 s and 7.5 s. They compile plain and link with the rest.
set_source_files_properties(tests/unit/main.cpp PROPERTIES COMPILE_OPTIONS "-fno-sanitize=all;-O0")
set_source_files_properties(tests/unit/core/lab_files_test.cpp PROPERTIES COMPILE_OPTIONS "-fno-sanitize=all")
# stb_image_write (the tests' and the fuzzer's JPEG encoder, not our code) shifts negative ints.
set_source_files_properties(tests/fuzz/fuzz.cpp tests/unit/request/resnet/jpeg_decode_test.cpp PROPERTIES
                            COMPILE_OPTIONS -fno-sanitize=shift)
