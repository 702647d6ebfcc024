#pragma once
// libcurl, loaded when the judge first asks something rather than when `rubric` starts: linked
// in, it and the libraries it brings (TLS, Kerberos, LDAP, IDN, ...) were most of the dynamic
// linking every `rubric check` paid for, judge or not.
#include <curl/curl.h>

#include <string>

namespace rubric::judge {

struct CurlLibrary {
  CURLcode (*global_init)(long flags) = nullptr;
  CURL* (*easy_init)() = nullptr;
  void (*easy_cleanup)(CURL*) = nullptr;
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...) = nullptr;
  CURLcode (*easy_perform)(CURL*) = nullptr;
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...) = nullptr;
  const char* (*easy_strerror)(CURLcode) = nullptr;
  curl_slist* (*slist_append)(curl_slist*, const char*) = nullptr;
  void (*slist_free_all)(curl_slist*) = nullptr;
};

// libcurl.so.4, loaded and initialised once (curl_global_init); nullptr when it cannot be, with
// why in `problem` ("libcurl.so.4: cannot open shared object file ...").
const CurlLibrary* curl_library(std::string* problem);

}  // namespace rubric::judge
