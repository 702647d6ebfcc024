#pragma once
// The review page's server (Boost.Beast): loopback only, every request must carry the random
// token the printed URL holds, and the Host header must name the loopback address (a page on
// another site cannot reach it through DNS rebinding). Each answer forbids scripts and any
// request off the machine (Content-Security-Policy).
#include <cstdint>

#include "cli/review_page.hpp"

namespace rubric::cli {

// Serves `site` on 127.0.0.1:`port` (0: a free port) until the process is stopped; prints the
// URL on stdout first. Returns 2 when the port cannot be had.
int serve_reviews(ReviewSite& site, std::uint16_t port);

}  // namespace rubric::cli
