# Verilating RTL configurations.
#
# Every RTL configuration (top module + parameter set) is Verilated once into
# the single static library `hwprof_rtl`, with its own class prefix, so tests,
# the hwprof CLI and benchmarks share the generated code. Verilated C++ is
# compiled at -O1 to keep the regression's build time down.

# The library is created by hwprof_rtl_library() in the directory that calls
# hwprof_verilate() (verilate() links into it and needs the same directory).
macro(hwprof_rtl_library)
  add_library(hwprof_rtl STATIC)
  target_compile_options(hwprof_rtl PRIVATE -O1 -Wno-unused-variable)
endmacro()
set(HWPROF_VERILATOR_ARGS
  -Wall --assert -x-assign unique -x-initial unique
  -I${HWPROF_RTL_DIR}/include
  ${HWPROF_RTL_DIR}/lint/waivers.vlt)

# hwprof_verilate(PREFIX <Vname> TOP <module> SOURCES <sv...> [PARAMS K=V...])
# Adds one configuration to hwprof_rtl; the model class is <PREFIX>, its
# header "<PREFIX>.h".
function(hwprof_verilate)
  cmake_parse_arguments(A "" "PREFIX;TOP" "SOURCES;PARAMS" ${ARGN})
  set(params)
  foreach(p IN LISTS A_PARAMS)
    list(APPEND params -G${p})
  endforeach()
  verilate(hwprof_rtl
    PREFIX ${A_PREFIX}
    TOP_MODULE ${A_TOP}
    DIRECTORY ${CMAKE_BINARY_DIR}/verilated/${A_PREFIX}
    SOURCES ${A_SOURCES}
    TRACE_FST
    VERILATOR_ARGS ${HWPROF_VERILATOR_ARGS} ${params})
endfunction()

# hwprof_manifest(<top> <outvar>): absolute source list, in compile order, of
# the FuseSoC core whose top is <top> and of every core it depends on
# (rtl/**/<module>.core, read by scripts/hwprof_cores.py).
function(hwprof_manifest top outvar)
  find_program(HWPROF_PYTHON3 python3 REQUIRED)
  set(reader ${CMAKE_SOURCE_DIR}/scripts/hwprof_cores.py)
  foreach(what files cores)
    execute_process(COMMAND ${HWPROF_PYTHON3} ${reader} ${what} ${top} --abs
      OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "hwprof_manifest(${top}): ${err}")
    endif()
    string(REGEX REPLACE "\n$" "" out "${out}")
    string(REPLACE "\n" ";" ${what} "${out}")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${cores} ${reader})
  set(${outvar} ${files} PARENT_SCOPE)
endfunction()
