# Writes a .cpp holding every stdlib/std/*.rubric file as a string, keyed by module name.
file(GLOB files ${DIR}/*.rubric)
list(SORT files)
foreach(f ${files})
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} text HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${text}")
  string(APPEND decls "static const char k_${name}[] = {${bytes} 0};\n")
  string(APPEND entries "      {\"${name}\", std::string_view(k_${name}, sizeof(k_${name}) - 1)},\n")
endforeach()
file(WRITE ${OUT}.tmp "// Generated from stdlib/std/*.rubric by embed_stdlib.cmake; do not edit.
#include <map>
#include <string>
#include <string_view>

namespace rubric {
namespace {
${decls}}  // namespace

const std::map<std::string, std::string_view>& embedded_stdlib() {
  static const std::map<std::string, std::string_view> modules = {
${entries}  };
  return modules;
}

}  // namespace rubric
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
