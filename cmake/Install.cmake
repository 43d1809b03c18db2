# The install tree and the Debian package.
#
#   bin/                      mscc, mscxx, msrun, ms_memusage, ms_control,
#                             ms_diff, ms_print (the Debian package:
#                             lib/massif-native/ms_print, offered as the
#                             ms_print alternative)
#   lib/massif-native/        the pass plugins and the runtime archives
#                             (the symbolizer is inside libmassif_rt.a)
#   lib/massif-native/valgrind/  msrun --engine=vex: the tool, its launcher
#                             and preload, and links to the system
#                             Valgrind's files (a VALGRIND_LIB folder)
#   lib/cmake/massif-native/  the CMake package and toolchain file
#   include/massif/           the pass<->runtime contract, the file format
#   share/man/man1/           a page per command
#   share/doc/massif-native/  README and docs/
#
# The tools find lib/massif-native/ from their own location (bin/..), so a
# prefix can be moved or copied anywhere; nothing of the build machine's
# paths is installed. The build tree has the same layout.

include(GNUInstallDirs)
set(MASSIF_INSTALL_LIBDIR lib/massif-native)

install(PROGRAMS ${CMAKE_BINARY_DIR}/bin/mscc ${CMAKE_BINARY_DIR}/bin/mscxx
        DESTINATION bin)
install(TARGETS msrun RUNTIME DESTINATION bin)
# ms_memusage and the library it preloads (found beside the executable as
# ../lib/massif-native/libmsmemusage.so).
install(TARGETS ms_memusage RUNTIME DESTINATION bin)
install(TARGETS ms_control RUNTIME DESTINATION bin)
install(TARGETS ms_diff RUNTIME DESTINATION bin)
install(TARGETS msmemusage LIBRARY DESTINATION ${MASSIF_INSTALL_LIBDIR})
install(TARGETS ms_memusage_graph RUNTIME DESTINATION ${MASSIF_INSTALL_LIBDIR})
# ms_print: bin/ms_print in an install prefix. Valgrind's package owns
# /usr/bin/ms_print, so the Debian package carries ours in
# lib/massif-native/ and offers it as the ms_print alternative: the command
# when Valgrind is not installed, and Valgrind's file (whose report is the
# same) left alone when it is.
install(TARGETS ms_print RUNTIME DESTINATION bin COMPONENT ms_print)
install(TARGETS ms_print RUNTIME DESTINATION ${MASSIF_INSTALL_LIBDIR}
        COMPONENT deb EXCLUDE_FROM_ALL)
install(TARGETS massif_pass LIBRARY DESTINATION ${MASSIF_INSTALL_LIBDIR})
foreach(v ${MASSIF_EXTRA_LLVM_VERSIONS})
  install(FILES ${MASSIF_LIB_DIR}/massif-llvm${v}.so
          DESTINATION ${MASSIF_INSTALL_LIBDIR}
          PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
                      GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
install(TARGETS massif_rt massif_rt_static massif_rt_cxx
        ARCHIVE DESTINATION ${MASSIF_INSTALL_LIBDIR})
if(MASSIF_HAVE_VEX)
  set(vgdir ${MASSIF_INSTALL_LIBDIR}/valgrind)
  install(TARGETS massif_vex massif_vex_launch RUNTIME DESTINATION ${vgdir})
  if(MASSIF_VEX_WRAPPER)
    install(CODE "file(CREATE_LINK \"${MASSIF_VEX_WRAPPER}\"
      \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${vgdir}/valgrind\" SYMBOLIC)")
  endif()
  install(FILES ${MASSIF_VEX_PRELOAD} DESTINATION ${vgdir})
  install(FILES runtime/vex/LICENSE DESTINATION ${vgdir})
  # The links point at the system Valgrind, wherever the prefix goes.
  foreach(f ${MASSIF_VEX_SHARED_FILES})
    get_filename_component(name ${f} NAME)
    install(CODE "file(CREATE_LINK \"${f}\"
      \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${vgdir}/${name}\" SYMBOLIC)")
  endforeach()
endif()
install(FILES include/massif/abi.h include/massif/format.h
              include/massif/massif.h
        DESTINATION include/massif)
install(FILES docs/man/mscc.1 docs/man/mscxx.1 docs/man/msrun.1
              docs/man/ms_print.1 docs/man/ms_memusage.1
              docs/man/ms_control.1 docs/man/ms_diff.1
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
file(GLOB MASSIF_DOCS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES README.md ${MASSIF_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The CMake package: find_package(massif-native) and the toolchain file.
include(CMakePackageConfigHelpers)
math(EXPR MASSIF_NEXT_LLVM_VERSION "${MASSIF_LLVM_VERSION} + 1")
configure_package_config_file(cmake/massif-nativeConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/massif-nativeConfig.cmake
  INSTALL_DESTINATION lib/cmake/massif-native)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/cmake/massif-nativeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/massif-nativeConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/massif-nativeConfigVersion.cmake
              cmake/massif-native-toolchain.cmake
        DESTINATION lib/cmake/massif-native)

# cpack -G DEB: a package for /usr. The tools run clang-${MASSIF_LLVM_VERSION};
# the embedded symbolizer links elfutils' libdw and libelf, the C++
# runtime and zlib; msrun and ms_print the C++ runtime; ms_memusage libgd.
set(CPACK_PACKAGE_NAME massif-native)
set(CPACK_PACKAGE_VENDOR "massif-native")
set(CPACK_PACKAGE_CONTACT "massif-native developers <massif-native@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Valgrind Massif's heap profile at close to native speed")
set(CPACK_PACKAGE_DESCRIPTION
    "A Clang pass plugin and a runtime that write Massif's massif.out file; an ms_print that prints Valgrind's report byte for byte and writes an HTML view, JSON, collapsed stacks and pprof; ms_diff to compare two profiles.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(MASSIF_DEB_DEPENDS
    "clang-${MASSIF_LLVM_VERSION}" "libc6 (>= 2.36)" "libstdc++6 (>= 12)"
    "libgcc-s1" "libdw1 (>= 0.188)" "libelf1 (>= 0.188)" "zlib1g"
    "libgd3 (>= 2.3)")
string(JOIN ", " CPACK_DEBIAN_PACKAGE_DEPENDS ${MASSIF_DEB_DEPENDS})
# msrun --engine=vex runs on the Valgrind its tool was built with.
set(MASSIF_DEB_SUGGESTS)
if(MASSIF_HAVE_VEX)
  execute_process(COMMAND dpkg-query -W -f=\${Version} valgrind
                  OUTPUT_VARIABLE MASSIF_VALGRIND_DEB_VERSION
                  ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND MASSIF_VALGRIND_DEB_VERSION)
    string(REGEX REPLACE "-[^-]*$" "" upstream "${MASSIF_VALGRIND_DEB_VERSION}")
    # Any Debian revision of the same upstream release.
    set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
        "valgrind (>= ${upstream}), valgrind (<< ${upstream}+)")
  else()
    list(APPEND MASSIF_DEB_SUGGESTS valgrind)
  endif()
else()
  list(APPEND MASSIF_DEB_SUGGESTS valgrind)
endif()
foreach(v ${MASSIF_EXTRA_LLVM_VERSIONS})
  list(APPEND MASSIF_DEB_SUGGESTS "clang-${v}")
endforeach()
string(JOIN ", " CPACK_DEBIAN_PACKAGE_SUGGESTS ${MASSIF_DEB_SUGGESTS})
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "")
set(CPACK_STRIP_FILES OFF)
# Every component but the prefix's bin/ms_print, in one package.
set(CPACK_INSTALL_CMAKE_PROJECTS
    "${CMAKE_BINARY_DIR};massif-native;Unspecified;/"
    "${CMAKE_BINARY_DIR};massif-native;deb;/")
configure_file(cmake/deb/postinst.in ${CMAKE_BINARY_DIR}/deb/postinst @ONLY)
configure_file(cmake/deb/prerm.in ${CMAKE_BINARY_DIR}/deb/prerm @ONLY)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_BINARY_DIR}/deb/postinst ${CMAKE_BINARY_DIR}/deb/prerm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
