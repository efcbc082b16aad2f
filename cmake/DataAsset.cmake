# A small data file of the site that a cell computes on by default (core/cell.h DataAsset): native builds compile
# it into sl_core as a byte array (cmake/EmbedBytes.cmake), defining COMPILE_DEFINITION=1 on the source that
# reads it; the wasm build leaves it out of the module and writes it beside it as SITE_NAME, which
# scripts/build.mjs serves under data/ (the page fetches it for the cell that uses it). Call after sl_core exists.
#   sl_data_asset(INPUT <file> SITE_NAME <name> HEADER <header> FUNCTION <qualified name>
#                 READER <source file> COMPILE_DEFINITION <macro>)
function(sl_data_asset)
  cmake_parse_arguments(A "" "INPUT;SITE_NAME;HEADER;FUNCTION;READER;COMPILE_DEFINITION" "" ${ARGN})
  if(EMSCRIPTEN)
    configure_file("${A_INPUT}" "${CMAKE_BINARY_DIR}/${A_SITE_NAME}" COPYONLY)
    return()
  endif()
  get_filename_component(stem "${A_SITE_NAME}" NAME_WE)
  string(REPLACE "-" "_" stem "${stem}")
  set(cpp "${CMAKE_BINARY_DIR}/generated/${stem}.generated.cpp")
  add_custom_command(
    OUTPUT "${cpp}"
    COMMAND "${CMAKE_COMMAND}" "-DINPUT=${A_INPUT}" "-DOUTPUT=${cpp}" "-DHEADER=${A_HEADER}" "-DFUNCTION=${A_FUNCTION}"
            -P "${PROJECT_SOURCE_DIR}/cmake/EmbedBytes.cmake"
    DEPENDS "${A_INPUT}" "${PROJECT_SOURCE_DIR}/cmake/EmbedBytes.cmake"
    COMMENT "Embedding ${A_SITE_NAME}"
    VERBATIM)
  target_sources(sl_core PRIVATE "${cpp}")
  set_source_files_properties("${A_READER}" PROPERTIES COMPILE_DEFINITIONS ${A_COMPILE_DEFINITION}=1)
endfunction()
