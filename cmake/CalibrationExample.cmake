# llm/calibration's bundled measurements (assets/calibration/serving-example.csv, made by
# tools/make_calibration_example.cpp), compiled into sl_core on both targets: a kilobyte, the cell's default
# input, so unlike a data asset (cmake/DataAsset.cmake) the page needs no fetch for it. Included after sl_core.
set(calibration_example_cpp "${CMAKE_BINARY_DIR}/generated/calibration_example.generated.cpp")
set(calibration_example_csv "${PROJECT_SOURCE_DIR}/assets/calibration/serving-example.csv")
add_custom_command(
  OUTPUT "${calibration_example_cpp}"
  COMMAND "${CMAKE_COMMAND}" "-DINPUT=${calibration_example_csv}" "-DOUTPUT=${calibration_example_cpp}"
          "-DHEADER=llm/calibration/calibration_measurements.h" "-DFUNCTION=sl::llm::calibration_example_csv"
          -P "${PROJECT_SOURCE_DIR}/cmake/EmbedBytes.cmake"
  DEPENDS "${calibration_example_csv}" "${PROJECT_SOURCE_DIR}/cmake/EmbedBytes.cmake"
  COMMENT "Embedding serving-example.csv"
  VERBATIM)
target_sources(sl_core PRIVATE "${calibration_example_cpp}")
set_source_files_properties("${calibration_example_cpp}" PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
