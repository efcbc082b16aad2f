# The LLM lab's sample trace (assets/traces/azure-conv-2023-sample.csv: the first 1,000 requests of the Azure LLM
# inference trace 2023, CC BY 4.0), a data asset (cmake/DataAsset.cmake) the site serves as
# data/azure-conv-2023-sample.csv. Included once, right after sl_core is defined.
include("${CMAKE_CURRENT_LIST_DIR}/DataAsset.cmake")
sl_data_asset(INPUT "${PROJECT_SOURCE_DIR}/assets/traces/azure-conv-2023-sample.csv"
              SITE_NAME azure-conv-2023-sample.csv HEADER llm/engine/trace_inputs.h FUNCTION sl::llm::sample_trace_csv
              READER "${PROJECT_SOURCE_DIR}/src/llm/engine/trace_inputs.cpp" COMPILE_DEFINITION SL_SAMPLE_TRACE_BUILTIN)
