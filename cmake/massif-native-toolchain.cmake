# A CMake toolchain file that builds a whole project with massif-native's
# heap profiler built in: the compilers are mscc and mscxx of this install.
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=<prefix>/lib/cmake/massif-native/massif-native-toolchain.cmake ..
#
# Run the programs as usual; MASSIF_OPTIONS (or msrun) takes Massif's
# options, and each run writes massif.out.<pid>.

get_filename_component(_massif_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(CMAKE_C_COMPILER "${_massif_prefix}/bin/mscc")
set(CMAKE_CXX_COMPILER "${_massif_prefix}/bin/mscxx")
unset(_massif_prefix)
