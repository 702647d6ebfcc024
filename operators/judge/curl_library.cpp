#include "operators/judge/curl_library.hpp"

#include <dlfcn.h>

#include <mutex>

namespace rubric::judge {

const CurlLibrary* curl_library(std::string* problem) {
  static std::once_flag once;
  static CurlLibrary library;
  static bool loaded = false;
  static std::string failure;
  std::call_once(once, [] {
    void* handle = ::dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* why = ::dlerror();
      failure = why ? why : "libcurl.so.4 could not be loaded";
      return;
    }
    bool all = true;
    auto bind = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(handle, name));
      if (!fn) {
        all = false;
        failure = std::string("libcurl.so.4 lacks ") + name;
      }
    };
    bind(library.global_init, "curl_global_init");
    bind(library.easy_init, "curl_easy_init");
    bind(library.easy_cleanup, "curl_easy_cleanup");
    bind(library.easy_setopt, "curl_easy_setopt");
    bind(library.easy_perform, "curl_easy_perform");
    bind(library.easy_getinfo, "curl_easy_getinfo");
    bind(library.easy_strerror, "curl_easy_strerror");
    bind(library.slist_append, "curl_slist_append");
    bind(library.slist_free_all, "curl_slist_free_all");
    if (!all) return;
    library.global_init(CURL_GLOBAL_DEFAULT);
    loaded = true;
  });
  if (!loaded) {
    if (problem) *problem = failure;
    return nullptr;
  }
  return &library;
}

}  // namespace rubric::judge
