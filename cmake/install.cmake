# Installed like a library: `cmake --install` puts the `rubric` executable, the GPU worker, the
# standard library, the X3-free headers and every rubric_* library with a CMake package, so a host
# writes `find_package(rubric)` and links `rubric::engine` (the embedding API, interpreter/engine.hpp).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(rubric_engine INTERFACE)
target_link_libraries(rubric_engine INTERFACE rubric_interpreter rubric_report)
target_include_directories(rubric_engine INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                                   $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/rubric>)
set_target_properties(rubric_engine PROPERTIES EXPORT_NAME engine)
add_library(rubric::engine ALIAS rubric_engine)

# Every library of the project, found by walking the build's folders, so a library added later is
# exported without editing this file (an export set must hold everything its members link).
function(rubric_collect_libraries dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  set(found "")
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(t MATCHES "^rubric_" AND NOT t STREQUAL "rubric_test_main" AND
       type MATCHES "^(STATIC_LIBRARY|INTERFACE_LIBRARY)$")
      list(APPEND found ${t})
    endif()
  endforeach()
  foreach(d ${subdirs})
    rubric_collect_libraries(${d} sub)
    list(APPEND found ${sub})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()
rubric_collect_libraries(${PROJECT_SOURCE_DIR} RUBRIC_LIBRARIES)

install(TARGETS ${RUBRIC_LIBRARIES} EXPORT rubricTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}/rubric)
install(EXPORT rubricTargets NAMESPACE rubric:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rubric)
if(TARGET rubric)
  install(TARGETS rubric RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# The init of every sandboxed run, found next to the running executable.
install(TARGETS rubric-run-init RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Headers: only those that never reach Spirit X3 (grammar's rule headers stay private).
foreach(stage grammar interpreter operators report)
  file(GLOB_RECURSE headers RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/${stage}/*.hpp)
  foreach(h ${headers})
    file(READ ${PROJECT_SOURCE_DIR}/${h} body)
    if(NOT body MATCHES "boost/spirit|grammar/config\\.hpp|grammar/directives\\.hpp")
      get_filename_component(dir ${h} DIRECTORY)
      install(FILES ${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/rubric/${dir})
    endif()
  endforeach()
endforeach()

# The packages the exported libraries link, found again by the installed config.
set(RUBRIC_DEPENDENCIES "find_dependency(fmt)\nfind_dependency(Threads)\nfind_dependency(Boost 1.74 COMPONENTS regex)\nfind_dependency(simdjson)")
string(APPEND RUBRIC_DEPENDENCIES "\nfind_dependency(PkgConfig)\npkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET GLOBAL libxxhash)\npkg_check_modules(RE2 REQUIRED IMPORTED_TARGET GLOBAL re2)")
foreach(pkg OpenSSL CURL CUDAToolkit)
  if(${pkg}_FOUND)
    string(APPEND RUBRIC_DEPENDENCIES "\nfind_dependency(${pkg})")
  endif()
endforeach()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/rubricConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/rubricConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rubric)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rubricConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/rubricConfig.cmake ${PROJECT_BINARY_DIR}/rubricConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rubric)
